/**
 * A joi schema that carries the TypeScript type of what it validates to. Both are built by the same
 * calls: a field added, removed, made optional or retyped changes the schema and the type together,
 * so `Infer<typeof x>` can never disagree with `x.joi`. Leaves take the joi schema of their own kind
 * (a `Joi.StringSchema` for a string, …), so a refinement cannot turn a string field into a number.
 */
import Joi from 'joi';
import { fastValidate } from './fast-validation';

declare const OUTPUT: unique symbol;
declare const INPUT: unique symbol;

/** `I`, what the schema accepts, defaults to unknown so a `Typed<T>` annotation takes any schema of output T. */
export interface Typed<T, I = unknown> {
  readonly joi: Joi.Schema;
  /** Type-level only, never set: what a value is after validation. */
  readonly [OUTPUT]?: T;
  /** Type-level only, never set: what validation accepts (defaults may be left out, stripped fields sent). */
  readonly [INPUT]?: I;
}

export type Infer<S> = S extends Typed<infer T, unknown> ? T : never;
/** What a schema accepts, for producers that build values for it (e.g. a provider's records). */
export type InferInput<S> = S extends Typed<unknown, infer I> ? I : never;

type Presence = 'optional' | 'default' | 'absent';

/** An object field that is not simply required (plain Typed fields are). */
export interface Field<T, P extends Presence, I = unknown> {
  readonly presence: P;
  readonly joi: Joi.Schema;
  /** Type-level only, never set. */
  readonly [OUTPUT]?: T;
  /** Type-level only, never set. */
  readonly [INPUT]?: I;
}

export type Fields = Record<string, Typed<unknown> | Field<unknown, Presence>>;

type Flatten<T> = { [K in keyof T]: T[K] } & {};
type Present<F extends Fields> = {
  [K in keyof F as F[K] extends Field<unknown, 'optional' | 'absent'> ? never : K]: F[K] extends Typed<infer T> | Field<infer T, Presence> ? T : never;
};
type Optional<F extends Fields> = {
  [K in keyof F as F[K] extends Field<unknown, 'optional'> ? K : never]?: F[K] extends Field<infer T, Presence> ? T : never;
};
export type ObjectOf<F extends Fields> = Flatten<Present<F> & Optional<F>>;
/** The input of an object: plain Typed fields required, every other field may be left out. */
type InputPresent<F extends Fields> = { [K in keyof F as F[K] extends Field<unknown, Presence, unknown> ? never : K]: InferInput<F[K]> };
type InputOptional<F extends Fields> = { [K in keyof F as F[K] extends Field<unknown, Presence, unknown> ? K : never]?: F[K] extends Field<unknown, Presence, infer I> ? I : never };
export type InputOf<F extends Fields> = Flatten<InputPresent<F> & InputOptional<F>>;

const same = <S>(s: S) => s;
const isField = (f: Typed<unknown> | Field<unknown, Presence>): f is Field<unknown, Presence> => 'presence' in f;

/** A field that may be missing. */
export const optional = <T, I>(x: Typed<T, I>): Field<T, 'optional', I> => ({ presence: 'optional', joi: x.joi });
/** A field that may be missing in the input and is always there after validation. */
export const withDefault = <T extends Joi.BasicType, I>(x: Typed<T, I>, value: T): Field<T, 'default', I> => ({ presence: 'default', joi: x.joi.default(value) });
/** Accepted and dropped: never in the validated value. */
export const stripped = (): Field<never, 'absent', unknown> => ({ presence: 'absent', joi: Joi.any().strip() });
/** Refused when present. */
export const forbidden = (): Field<never, 'absent', never> => ({ presence: 'absent', joi: Joi.forbidden() });

export const string = (schema: Joi.StringSchema = Joi.string()): Typed<string, string> => ({ joi: schema });
export const number = (schema: Joi.NumberSchema = Joi.number()): Typed<number, number> => ({ joi: schema });
export const boolean = (schema: Joi.BooleanSchema = Joi.boolean()): Typed<boolean, boolean> => ({ joi: schema });

/** One of the given strings; `refine` adds messages or rules to `Joi.string().valid(…values)`. */
export const oneOf = <const V extends readonly string[]>(values: V, refine: (s: Joi.StringSchema) => Joi.StringSchema = same): Typed<V[number], V[number]> => ({
  joi: refine(Joi.string().valid(...values)),
});

export const array = <T, I>(item: Typed<T, I>, refine: (s: Joi.ArraySchema) => Joi.ArraySchema = same): Typed<T[], I[]> => ({ joi: refine(Joi.array().items(item.joi)) });

/** Typed fields are required; `optional`, `withDefault`, `stripped` and `forbidden` say otherwise. Keys validate in this order. */
export function object<F extends Fields>(fields: F, refine: (s: Joi.ObjectSchema) => Joi.ObjectSchema = same): Typed<ObjectOf<F>, InputOf<F>> {
  const keys: Record<string, Joi.Schema> = {};
  for (const [name, f] of Object.entries(fields)) keys[name] = isField(f) ? f.joi : f.joi.required();
  return { joi: refine(Joi.object(keys)) };
}

/** Any JSON object, unchecked inside. */
export const unknownObject = (): Typed<Record<string, unknown>, Record<string, unknown>> => ({ joi: Joi.object().unknown(true) });

export const nullable = <T, I>(x: Typed<T, I>): Typed<T | null, I | null> => ({ joi: x.joi.allow(null) });

/** A value matching one of the alternatives (tried in order). */
export const anyOf = <A extends Typed<unknown>[]>(...alternatives: A): Typed<Infer<A[number]>, InferInput<A[number]>> => ({
  joi: Joi.alternatives().try(...alternatives.map((a) => a.joi)),
});

/** One of the members, chosen by the value of `field` (each member's own `field` is its key). */
export const union = <F extends string, M extends { [K in keyof M]: Typed<Record<F, K>> }>(field: F, members: M): Typed<Infer<M[keyof M]>, InferInput<M[keyof M]>> => ({
  joi: Joi.alternatives().conditional(`.${field}`, { switch: Object.entries<Typed<unknown>>(members).map(([is, m]) => ({ is, then: m.joi })) }),
});

export type Validation<T> = { value: T; error?: undefined } | { value?: undefined; error: Joi.ValidationError };

/** Validates with the schema (the fast path when it is sure, else joi); the value is typed as the schema's output. */
export function validateTyped<T>(x: Typed<T>, value: unknown, options?: Joi.ValidationOptions): Validation<T> {
  const fast = fastValidate(x.joi, value, options);
  if (fast) return { value: fast.value as T };
  const { value: out, error } = x.joi.validate(value, options);
  if (error) return { error };
  // The one place a validated value takes its static type: the schema built both.
  return { value: out as T };
}
