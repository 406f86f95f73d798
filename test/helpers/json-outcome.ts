/** What a JSON reader gave, for comparing one reader with `JSON.parse` (the replay tests of log text). */
export type Outcome = { value: unknown; keys: string } | { error: string };

/** The value and the key order of every object in it (`JSON.stringify` keeps the order), or the error's kind. */
export function outcome(read: () => unknown): Outcome {
  try {
    const value = read();
    return { value, keys: JSON.stringify(value) };
  } catch (error) {
    return { error: (error as Error).constructor.name };
  }
}
