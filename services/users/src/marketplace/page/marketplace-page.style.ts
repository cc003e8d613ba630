/**
 * The marketplace's stylesheet (inline: the page loads no external assets). Mobile first; cards
 * flow into columns on wider screens; focus is always visible; honours reduced motion and dark mode.
 */
export const MARKETPLACE_CSS = `
:root{--bg:#f6f7f9;--fg:#16181d;--muted:#4b5563;--card:#fff;--line:#d6dae1;--accent:#0b5fff;--accent-fg:#fff;--ok:#0f7b3f;--warn:#9a5b00;--danger:#b42318;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#111318;--fg:#eef0f3;--muted:#a9b0bc;--card:#1b1e25;--line:#333846;--accent:#6ea0ff;--accent-fg:#0b0d12;--ok:#4ade80;--warn:#fbbf24;--danger:#ff8a80}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
.skip{position:absolute;left:-999px;top:0;background:var(--accent);color:var(--accent-fg);padding:.5rem 1rem;z-index:10}
.skip:focus{left:.5rem;top:.5rem}
header,main{max-width:60rem;margin:0 auto;padding:1rem}
header{padding-top:2rem}
h1{font-size:1.6rem;margin:0 0 .25rem}
h2{font-size:1.2rem;margin:1.5rem 0 .75rem}
h3{font-size:1rem;margin:0}
p{margin:.25rem 0}
.muted{color:var(--muted)}
.status{min-height:1.5rem;margin:.5rem 0;font-weight:600}
.status.error{color:var(--danger)}
.status.ok{color:var(--ok)}
.status.warn{color:var(--warn)}
.grid{list-style:none;margin:0;padding:0;display:grid;gap:.75rem;grid-template-columns:1fr}
@media (min-width:40rem){.grid{grid-template-columns:repeat(2,1fr)}}
@media (min-width:60rem){.grid{grid-template-columns:repeat(3,1fr)}}
.card{background:var(--card);border:1px solid var(--line);border-radius:.75rem;padding:.9rem;display:flex;gap:.75rem;align-items:flex-start}
.card[data-tone="ok"]{border-color:var(--ok);box-shadow:inset 4px 0 0 var(--ok)}
.card[data-tone="warn"]{border-color:var(--warn);box-shadow:inset 4px 0 0 var(--warn)}
.card[data-tone="error"]{border-color:var(--danger);box-shadow:inset 4px 0 0 var(--danger)}
.logo{flex:none;width:3rem;height:3rem;border-radius:.6rem;display:grid;place-items:center;font-weight:700;font-size:1.05rem;letter-spacing:.02em}
.info{flex:1;min-width:0}
.kind,.state,.note{font-size:.875rem;color:var(--muted)}
.card[data-tone="ok"] .state{color:var(--ok);font-weight:600}
.card[data-tone="warn"] .state{color:var(--warn);font-weight:600}
.card[data-tone="error"] .state{color:var(--danger);font-weight:600}
.card progress{display:block;width:100%;height:.5rem;margin:.25rem 0;accent-color:var(--ok)}
.buttons{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.5rem}
button,select{font:inherit}
button{min-height:2.75rem;padding:.5rem 1rem;border-radius:.5rem;border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer;font-weight:600}
button.secondary{background:transparent;color:var(--fg);border-color:var(--line)}
button:disabled{opacity:.6;cursor:progress}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
select{min-height:2.75rem;padding:.4rem;border-radius:.5rem;border:1px solid var(--line);background:var(--card);color:var(--fg);max-width:100%}
.tz{background:var(--card);border:1px solid var(--line);border-radius:.75rem;padding:1rem}
.tz form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end}
.tz label{display:block;font-weight:600;width:100%}
.panel{max-width:32rem;margin:3rem auto;background:var(--card);border:1px solid var(--line);border-radius:.75rem;padding:1.5rem}
a{color:var(--accent)}
@media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important}}
`;
