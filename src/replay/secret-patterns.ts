/**
 * The built-in secret patterns of the redactor. Token formats are the providers' published prefixes and lengths;
 * a pattern with a `secret` group masks only that group (the name before it stays readable).
 *
 * Invariants: every pattern is global with indices (`dg`), has no nested quantifier (linear time on V8), and
 * contains one of the words of `MAY_HOLD_SECRET` / `MAY_HOLD_SECRET_CASED`, which the redactor's fast path relies on.
 */

/** Variable names whose values are secrets: upper-case words with KEY, TOKEN, SECRET or PASSWORD in them. */
// Bounded repeats: a long run of capitals full of KEYs must not cost quadratic time.
const SECRET_NAME = String.raw`[A-Z0-9_]{0,64}(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)[A-Z0-9_]{0,64}`;

/** Object members whose string values are secrets (HTTP header names in any case, and secret variable names). */
const SECRET_HEADER_NAMES = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'apikey', 'api_key', 'x-auth-token', 'cookie', 'set-cookie']);
// Not masked: references (`$TOKEN`, `${TOKEN}`), placeholders ending in `...` or `…` (`sk-ant-...` in help
// texts), and prose: a lower-case word followed by more words (`no ANTHROPIC_API_KEY: set it, or …`), which no
// token is (a value with spaces in it is quoted, and then masked whole).
const SECRET_VALUE = String.raw`"[^"\n]{0,4096}"|'[^'\n]{0,4096}'|(?!\$)(?![^\s"'\\,;}]*(?:\.\.\.|…))(?![a-z]{1,32},? [A-Za-z])[^\s"'\\,;}]+`;
const SECRET_NAME_RE = new RegExp(`^${SECRET_NAME}$`);

export function isSecretMemberName(name: string): boolean {
  return SECRET_HEADER_NAMES.has(name.toLowerCase()) || SECRET_NAME_RE.test(name);
}

/**
 * Where a token may start: after a non-word character, or right after a JSON/C escape (`\n`, `\t`, …), so that a
 * secret on a new line of JSON-encoded text (`"…\nghp_…"`) is still found (`\b` would see the `n` glued to it).
 */
const START = String.raw`(?:(?<![A-Za-z0-9_])|(?<=\\[nrtbf]))`;
const at = (source: string, flags: string) => new RegExp(`${START}${source}`, flags);

export const BUILT_IN_SECRET_PATTERNS: readonly RegExp[] = [
  // Anthropic keys of every kind: sk-ant-api03-…, sk-ant-admin01-…, sk-ant-oat01-…
  // (Not a placeholder that ends in `…` or `...`, as docs write `sk-ant-admin01-…`.)
  /sk-ant-[A-Za-z0-9_-]{8,}(?![A-Za-z0-9_-]|…|\.\.\.)/dg,
  // Header fragments in text: `Authorization: Bearer …`, `x-api-key=…`, JSON `"authorization": "…"`.
  // A reference (`Bearer ${token}`, `"Bearer $TOKEN"`) is not a secret; a template literal's backtick is a quote.
  at(String.raw`(?:proxy-)?(?:authorization|x-api-key|api-key|x-auth-token)["']?\s*[:=]\s*["'\x60]?(?:(?:Bearer|Basic|Token)\s+|(?!(?:Bearer|Basic|Token)\s))(?!\$)(?<secret>[^\s"'\x60,;}]+)`, 'dgi'),
  at(String.raw`Bearer\s+(?<secret>[A-Za-z0-9._~+/=-]{8,})`, 'dg'),
  // AWS access key ids and secret access keys (the latter only next to a name that says so).
  at(String.raw`(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}(?![A-Za-z0-9])`, 'dg'),
  at(String.raw`aws_?secret(?:_?access)?_?key["']?\s*[:=]\s*["']?(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`, 'dgi'),
  // GitHub (classic and fine-grained) and GitLab tokens.
  at(String.raw`(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}(?![A-Za-z0-9])`, 'dg'),
  at(String.raw`github_pat_[A-Za-z0-9_]{22,255}`, 'dg'),
  at(String.raw`gl(?:pat|ptt|dt|rt|cbt|imt|soat|ffct|oas)-[A-Za-z0-9_-]{20,}`, 'dg'),
  // Slack tokens and incoming-webhook URLs.
  at(String.raw`xox[abposre]-[A-Za-z0-9-]{10,}`, 'dg'),
  /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+/dg,
  // Google API keys.
  at(String.raw`AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`, 'dg'),
  // PEM private keys, whole (to the END line, or to the end of the text when it was cut).
  /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY[A-Z0-9 ]{0,20}-----[\s\S]*?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY[A-Z0-9 ]{0,20}-----|$)/dg,
  // JSON Web Tokens: base64url header and payload (both JSON objects, so "eyJ"), optional signature.
  /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/dg,
  // NAME=value, NAME: value, "NAME": "value" for secret variable names (export lines, .env files, YAML, JSON text).
  // A quoted value is masked to its closing quote (it may hold spaces); an unquoted one to the next separator.
  new RegExp(String.raw`${SECRET_NAME}["']?\s*[:=]\s*(?<secret>${SECRET_VALUE})`, 'dg'),
  at(String.raw`(?:password|passwd|secret|client_secret|api_?key|access_token|refresh_token|auth_token)["']?\s*[:=]\s*(?<secret>${SECRET_VALUE})`, 'dgi'),
];

/**
 * Case-insensitive words one of which every case-insensitive pattern or header name contains: sk-ant-, password,
 * passwd, secret (so aws_secret too), access_token, refresh_token, auth_token, authorization, x-api-key, api-key,
 * apikey, api_key, x-auth-token, cookie, bearer, gh[pousr]_, github_pat_, gl[a-z]{1,5}-, xox, hooks.slack, aiza,
 * private key, eyj. Written as a trie on the first letter: V8's regexp engine then tries one branch per position
 * instead of every word (half the time of the flat list on a turn's events; the recorder runs it on every turn).
 */
export const MAY_HOLD_SECRET = /a(?:ccess_token|uth_token|uthorization|pi[-_]?key|iza)|bearer|cookie|eyj|g(?:h[pousr]_|ithub_pat_|l[a-z]{1,5}-)|hooks\.slack|p(?:ass(?:word|wd)|rivate key)|refresh_token|s(?:k-ant-|ecret)|x(?:-api-key|-auth-token|ox)/i;

/** Case-sensitive words: AWS key id prefixes and secret variable names (upper case, so not every `input_tokens`). */
export const MAY_HOLD_SECRET_CASED = /A[BCGIKNPRS][A-Z]A[A-Z0-9]{16}|KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/;
