/**
 * Events are written twice on purpose: the type (`src/data/events.ts`, loaded by the root without zod) and the
 * zod schema (`src/data/event-schema.ts`, the boundary check). The type checker holds them equal here, event by
 * event: the same `type` literals, the same keys, the same optional keys. (The fast hand check `isLoopEvent` is
 * held equal to the schema by `test/property/event-check.test.ts`.)
 */
import { expectTypeOf } from 'vitest';
import type { z } from 'zod';
import type { loopEventSchema } from '../../src/data/event-schema.ts';
import type { EventOf, LoopEvent, LoopEventType } from '../../src/data/events.ts';

type SchemaEvent = z.infer<typeof loopEventSchema>;
type SchemaEventOf<K> = Extract<SchemaEvent, { type: K }>;
type OptionalKeys<T> = { [P in keyof T]-?: object extends Pick<T, P> ? P : never }[keyof T];

/** For each event type, the keys only one side has and the optional keys only one side has (all `never` when equal). */
type Differences = {
  [K in LoopEventType]: {
    onlyInType: Exclude<keyof EventOf<K>, keyof SchemaEventOf<K>>;
    onlyInSchema: Exclude<keyof SchemaEventOf<K>, keyof EventOf<K>>;
    optionalOnlyInType: Exclude<OptionalKeys<EventOf<K>>, OptionalKeys<SchemaEventOf<K>>>;
    optionalOnlyInSchema: Exclude<OptionalKeys<SchemaEventOf<K>>, OptionalKeys<EventOf<K>>>;
  };
};
type NoDifference = { [K in LoopEventType]: { onlyInType: never; onlyInSchema: never; optionalOnlyInType: never; optionalOnlyInSchema: never } };

expectTypeOf<SchemaEvent['type']>().toEqualTypeOf<LoopEvent['type']>();
expectTypeOf<Differences>().toEqualTypeOf<NoDifference>();
