/**
 * `wellstream ingest <file> --user <uid>`: a user's records from a file, posted with the user's
 * mobile token as the mobile solution posts them, in requests of at most 1,000 records (the API's
 * limit). All-or-nothing per request, as the API is: a refused request names its first record.
 */
import fs from 'node:fs';
import { CliFailure, EXIT_USAGE } from '../cli-io';
import { printJson } from '../output';
import type { Session } from '../session';

const PER_REQUEST = 1000;

function readRecords(file: string): unknown[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliFailure(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, EXIT_USAGE);
  }
  try {
    const whole = JSON.parse(text) as unknown;
    if (Array.isArray(whole)) return whole;
    if (whole && typeof whole === 'object' && Array.isArray((whole as { records?: unknown }).records)) return (whole as { records: unknown[] }).records;
    throw new CliFailure(`${file}: expected {"records":[…]}, an array of records, or one record a line`, EXIT_USAGE);
  } catch (err) {
    if (err instanceof CliFailure) throw err;
    // Not one JSON document: NDJSON, one record a line.
    return text.split('\n').flatMap((line, i) => {
      if (!line.trim()) return [];
      try {
        return [JSON.parse(line) as unknown];
      } catch {
        throw new CliFailure(`${file}, line ${i + 1}: not JSON`, EXIT_USAGE);
      }
    });
  }
}

export async function ingestFile(s: Session, file: string, flags: { user: string }): Promise<void> {
  const records = readRecords(file);
  if (records.length === 0) throw new CliFailure(`${file} holds no records`, EXIT_USAGE);
  const { mobile } = await s.client.users.get(s.organization(), flags.user);
  let stored = 0;
  for (let i = 0; i < records.length; i += PER_REQUEST) {
    const answer = await s.client.mobile.ingest(mobile.token, { records: records.slice(i, i + PER_REQUEST) } as never);
    stored += answer.data.length;
    if (!s.json) s.io.stderr(`… ${Math.min(i + PER_REQUEST, records.length)} of ${records.length} posted\n`);
  }
  if (s.json) printJson(s.io, { user: flags.user, posted: records.length, stored });
  else s.io.stdout(`${records.length} records posted for ${flags.user}\n`);
}
