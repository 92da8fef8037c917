/**
 * The secret detectors: one rule per kind of credential agent logs carry, each a regex over one decoded string and,
 * where a shape alone says too little, a check of the value (entropy, a decodable JWT header, a PEM body).
 *
 * The key shapes follow the published formats and secretlint's recommended preset (MIT; its patterns are the
 * reference for the provider, GitHub, GitLab, npm, Slack, Stripe, SendGrid, Shopify, Grafana, Vault, Databricks,
 * Docker, Figma, Tailscale, Groq, Hugging Face, Linear and Notion rules); the preset itself is not run here: on the
 * 280k-event log it took 2.5 s for the 17.5 MB of strings, 2.5x the whole `fold --json`, (docs/decisions.md), so it
 * is the tests' oracle instead (src/core/secrets/secretlint-oracle.test.ts). Rules it lacks are ours: DeepSeek keys,
 * AWS access key ids (off by default there), GCP service-account JSON inside any text, Google API keys, Azure keys,
 * JWTs, `Authorization`/`Bearer` credentials and `.env`-style assignments with a high-entropy value.
 *
 * A rule reports the secret itself (the `secret` group, or the whole match): `Authorization: Bearer <token>` keeps
 * its words and loses the token. Every rule refuses a value that is already a redaction placeholder, so a redacted
 * log scans clean.
 */

/** Stable ids, only ever added to (`secrets --json`'s `kind`, the placeholder's middle word). */
export const SECRET_KINDS = [
  'deepseek-api-key',
  'openai-api-key',
  'anthropic-api-key',
  'openrouter-api-key',
  'groq-api-key',
  'huggingface-token',
  'xai-api-key',
  'google-api-key',
  'aws-access-key-id',
  'aws-secret-access-key',
  'gcp-service-account',
  'azure-storage-key',
  'azure-client-secret',
  'github-token',
  'gitlab-token',
  'npm-token',
  'slack-token',
  'slack-webhook',
  'stripe-key',
  'sendgrid-key',
  'shopify-token',
  'grafana-token',
  'vault-token',
  'databricks-token',
  'docker-token',
  'figma-token',
  'tailscale-key',
  'linear-api-key',
  'notion-token',
  'pypi-token',
  'digitalocean-token',
  'jwt',
  'private-key',
  'authorization-header',
  'url-password',
  'env-assignment',
] as const

export type SecretKind = (typeof SECRET_KINDS)[number]

export interface SecretRule {
  readonly kind: SecretKind
  /** What it finds, in words (docs/secrets.md lists them). */
  readonly name: string
  /** Global regex over one decoded string; the `secret` group (else the whole match) is the value. */
  readonly pattern: RegExp
  /** How many leading characters are the format's public marker (`ghp_`), shown by the masked preview. */
  readonly publicPrefix: number
  /** A further check of the value; the rule reports only values it accepts. */
  readonly accept?: (value: string) => boolean
}

/** One secret in a string: its kind and its [start, end) there. */
export interface SecretHit {
  readonly kind: SecretKind
  readonly start: number
  readonly end: number
}

/** The placeholder redaction writes: `[REDACTED:<kind>:<hash>]` (see redaction). No rule matches it. */
export const PLACEHOLDER_START = '[REDACTED:'

// No letter, digit, `_` or `-` right before or after a token: a key inside a longer word is not that key.
const B = '(?<![A-Za-z0-9_-])'
const E = '(?![A-Za-z0-9_-])'

/** Shannon entropy of a string, in bits per character. */
export function entropyBits(value: string): number {
  const counts = new Map<string, number>()
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1)
  const n = value.length
  let bits = 0
  for (const c of counts.values()) bits -= (c / n) * Math.log2(c / n)
  return bits
}

/** Character classes present (lower, upper, digit, other). */
function classes(value: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length
}

/** Values people write instead of a secret: placeholders, templates, references to another variable. */
const NOT_A_VALUE =
  /^(?:\$|\{\{|<|%|\*{3}|x{4}|X{4}|\.{3})|your[-_]|example|changeme|placeholder|redacted|dummy|sample|^(?:true|false|null|none|undefined)$/i

/** A random-looking value: long enough, mixed, and with entropy a word or an identifier rarely has. */
export function looksRandom(value: string, minLength = 16): boolean {
  if (value.length < minLength || NOT_A_VALUE.test(value)) return false
  return classes(value) >= 2 && entropyBits(value) >= 3.5
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/** A base64url segment decoded as Latin-1 text and parsed as JSON (a JWT header is ASCII JSON), or undefined. */
function base64UrlJson(part: string): unknown {
  let bits = 0
  let count = 0
  let text = ''
  for (const ch of part) {
    const v = BASE64URL.indexOf(ch)
    if (v === -1) return undefined
    bits = (bits << 6) | v
    count += 6
    if (count >= 8) {
      count -= 8
      text += String.fromCharCode((bits >> count) & 0xff)
    }
  }
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** A JWT: its header decodes to a JSON object naming an `alg`. */
function isJwt(value: string): boolean {
  const header = base64UrlJson(value.slice(0, value.indexOf('.')))
  return typeof header === 'object' && header !== null && 'alg' in header
}

const PEM_LABEL = '(?:(?:RSA|DSA|EC|OPENSSH|PGP|ENCRYPTED) )?PRIVATE KEY(?: BLOCK)?'

export const SECRET_RULES: readonly SecretRule[] = [
  {
    kind: 'private-key',
    name: 'PEM private key (RSA, DSA, EC, OpenSSH, PGP, PKCS#8)',
    // The whole block, header to footer; line breaks real or escaped (`\n` inside a JSON-encoded string). A key cut
    // short (no footer in the string) is reported from its header through the end of its base64 body.
    pattern: new RegExp(
      `-----BEGIN ${PEM_LABEL}-----(?:[A-Za-z0-9+/=\\s]|\\\\[rn]|[A-Za-z-]+: [^\\r\\n\\\\]*){16,16384}(?:-----END ${PEM_LABEL}-----)?`,
      'g',
    ),
    publicPrefix: 11,
  },
  {
    kind: 'gcp-service-account',
    name: 'Google Cloud service-account key id (the JSON key file; its private key is a private-key finding)',
    pattern: /"private_key_id"\s*:\s*\\?"(?<secret>[a-f0-9]{40})\\?"/g,
    publicPrefix: 0,
  },
  {
    kind: 'anthropic-api-key',
    name: 'Anthropic API key (sk-ant-api03-…, admin keys)',
    pattern: new RegExp(`${B}sk-ant-(?:api|admin)0\\d-[A-Za-z0-9_-]{80,128}${E}`, 'g'),
    publicPrefix: 13,
  },
  {
    kind: 'openrouter-api-key',
    name: 'OpenRouter API key',
    pattern: new RegExp(`${B}sk-or-v1-[a-f0-9]{64}${E}`, 'g'),
    publicPrefix: 9,
  },
  {
    kind: 'openai-api-key',
    name: 'OpenAI API key (project, service-account, admin and legacy keys)',
    pattern: new RegExp(
      `${B}sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,200}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})${E}`,
      'g',
    ),
    publicPrefix: 3,
  },
  {
    kind: 'deepseek-api-key',
    name: 'DeepSeek API key (sk- and 32 hex digits)',
    pattern: new RegExp(`${B}sk-[a-f0-9]{32}${E}`, 'g'),
    publicPrefix: 3,
  },
  { kind: 'groq-api-key', name: 'Groq API key', pattern: new RegExp(`${B}gsk_[A-Za-z0-9]{52}${E}`, 'g'), publicPrefix: 4 },
  {
    kind: 'huggingface-token',
    name: 'Hugging Face access token',
    pattern: new RegExp(`${B}hf_[A-Za-z]{34}${E}`, 'g'),
    publicPrefix: 3,
  },
  { kind: 'xai-api-key', name: 'xAI API key', pattern: new RegExp(`${B}xai-[A-Za-z0-9]{80}${E}`, 'g'), publicPrefix: 4 },
  {
    kind: 'google-api-key',
    name: 'Google API key (Gemini, Maps, Firebase)',
    pattern: new RegExp(`${B}AIza[0-9A-Za-z_-]{35}${E}`, 'g'),
    publicPrefix: 4,
  },
  {
    kind: 'aws-access-key-id',
    name: 'AWS access key id',
    pattern: /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Z0-9])/g,
    publicPrefix: 4,
  },
  {
    kind: 'aws-secret-access-key',
    name: 'AWS secret access key (named aws_secret_access_key, SecretAccessKey, …)',
    pattern: /(?:aws_?)?secret_?access_?key\\?["']?\s*(?::|=>|=)\s*\\?["']?(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    publicPrefix: 0,
    accept: (value) => looksRandom(value, 40),
  },
  {
    kind: 'azure-storage-key',
    name: 'Azure storage or Service Bus key (AccountKey=, SharedAccessKey=)',
    pattern: /(?:AccountKey|SharedAccessKey)=(?<secret>[A-Za-z0-9+/]{40,100}={0,2})/g,
    publicPrefix: 0,
  },
  {
    kind: 'azure-client-secret',
    name: 'Azure AD (Entra) client secret',
    pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
    publicPrefix: 0,
  },
  {
    kind: 'github-token',
    name: 'GitHub token (personal, OAuth, app, refresh, fine-grained)',
    pattern: new RegExp(`${B}(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{82})${E}`, 'g'),
    publicPrefix: 4,
  },
  {
    kind: 'gitlab-token',
    name: 'GitLab token (personal, pipeline, deploy, runner, …)',
    pattern: new RegExp(`${B}gl(?:pat|ptt|dt|rt|soat|ft|imt|agent|oas|cbt)-[A-Za-z0-9_-]{20,128}${E}`, 'g'),
    publicPrefix: 6,
  },
  { kind: 'npm-token', name: 'npm access token', pattern: new RegExp(`${B}npm_[A-Za-z0-9]{36}${E}`, 'g'), publicPrefix: 4 },
  {
    kind: 'slack-token',
    name: 'Slack token (bot, user, app, …)',
    pattern:
      /(?<![A-Za-z0-9])(?:xoxb|xoxp|xapp|xoxa|xoxo|xoxr|xoxe)-(?:\d-)?(?:[A-Za-z0-9]{1,40}-)+[A-Za-z0-9]{1,40}(?![A-Za-z0-9-])/g,
    publicPrefix: 5,
    accept: (value) => value.length >= 24,
  },
  {
    kind: 'slack-webhook',
    name: 'Slack incoming webhook URL',
    pattern: /https:\/\/hooks\.slack\.com\/services\/(?<secret>T[A-Za-z0-9]{1,40}\/B[A-Za-z0-9]{1,40}\/[A-Za-z0-9]{1,40})/g,
    publicPrefix: 1,
  },
  {
    kind: 'stripe-key',
    name: 'Stripe secret or restricted key',
    pattern: /(?<![A-Za-z0-9])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{24,99}(?![A-Za-z0-9])/g,
    publicPrefix: 8,
  },
  {
    kind: 'sendgrid-key',
    name: 'SendGrid API key',
    pattern: /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
    publicPrefix: 3,
  },
  {
    kind: 'shopify-token',
    name: 'Shopify access token',
    pattern: /(?<![A-Za-z0-9])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32,64}(?![A-Za-z0-9])/g,
    publicPrefix: 6,
  },
  {
    kind: 'grafana-token',
    name: 'Grafana Cloud or service-account token',
    pattern: /(?<![A-Za-z0-9])(?:glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})(?![A-Za-z0-9+/=])/g,
    publicPrefix: 4,
  },
  {
    kind: 'vault-token',
    name: 'HashiCorp Vault token',
    pattern: new RegExp(`${B}(?:hvs\\.[A-Za-z0-9_-]{90,120}|hvb\\.[A-Za-z0-9_-]{138,300}|hvr\\.[A-Za-z0-9_-]{90,120})${E}`, 'g'),
    publicPrefix: 4,
  },
  {
    kind: 'databricks-token',
    name: 'Databricks access token',
    pattern: /(?<![A-Za-z0-9])dapi[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9])/g,
    publicPrefix: 4,
  },
  {
    kind: 'docker-token',
    name: 'Docker Hub personal access token',
    pattern: new RegExp(`${B}dckr_pat_[A-Za-z0-9_-]{27}${E}`, 'g'),
    publicPrefix: 9,
  },
  {
    kind: 'figma-token',
    name: 'Figma personal access token',
    pattern: new RegExp(`${B}figd_[A-Za-z0-9_-]{40,200}${E}`, 'g'),
    publicPrefix: 5,
  },
  {
    kind: 'tailscale-key',
    name: 'Tailscale key',
    pattern: /(?<![A-Za-z0-9])tskey-[a-z]{2,20}-[0-9A-Za-z_]{8,40}-[0-9A-Za-z_]{16,60}(?![0-9A-Za-z_])/g,
    publicPrefix: 6,
  },
  {
    kind: 'linear-api-key',
    name: 'Linear API key',
    pattern: /(?<![A-Za-z0-9])lin_api_[A-Za-z0-9_]{32,128}(?![A-Za-z0-9_])/g,
    publicPrefix: 8,
  },
  {
    kind: 'notion-token',
    name: 'Notion integration token',
    pattern: /(?<![A-Za-z0-9])ntn_[0-9]{11}[A-Za-z0-9]{35}(?![A-Za-z0-9])/g,
    publicPrefix: 4,
  },
  {
    kind: 'pypi-token',
    name: 'PyPI upload token',
    pattern: new RegExp(`${B}pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}${E}`, 'g'),
    publicPrefix: 5,
  },
  {
    kind: 'digitalocean-token',
    name: 'DigitalOcean token',
    pattern: /(?<![A-Za-z0-9])do[opr]_v1_[a-f0-9]{64}(?![A-Za-z0-9])/g,
    publicPrefix: 7,
  },
  {
    kind: 'jwt',
    name: 'JSON Web Token (a header naming its alg, a payload, a signature)',
    pattern: new RegExp(`${B}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{16,}${E}`, 'g'),
    publicPrefix: 3,
    accept: isJwt,
  },
  {
    kind: 'authorization-header',
    name: 'Authorization / Bearer credential (the credential after the scheme)',
    // `Authorization: <scheme> <credential>`, `Authorization=`, or a bare `Bearer <token>`; the credential must look
    // random (a word such as "Bearer token" in prose is not one).
    pattern:
      /(?:\bauthorization\\?["']?\s*[:=]\s*\\?["']?(?:(?:bearer|basic|token|bot|digest)\s+)?|\bbearer\s+)(?<secret>[A-Za-z0-9._~+/-]{16,1024}=*)/gi,
    publicPrefix: 0,
    accept: (value) => looksRandom(value, 16),
  },
  {
    kind: 'url-password',
    name: 'password in a URL (scheme://user:password@host)',
    pattern: /\b[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^\s:/?#@"'\\]{1,256}:(?<secret>[^\s/?#@"'\\[]{1,256})@[A-Za-z0-9.-]{1,256}/g,
    publicPrefix: 0,
    accept: (value) => !NOT_A_VALUE.test(value) && !/^(?:pass(?:word)?|secret|pwd|\*+)$/i.test(value),
  },
  {
    kind: 'env-assignment',
    name: '.env-style assignment of a high-entropy value to *_KEY, *_SECRET, *_TOKEN, *PASSWORD',
    pattern:
      /\b(?<name>[A-Za-z0-9_]*(?:_KEY|_SECRET|_TOKEN|PASSWORD|_PASSWD|_PWD))\\?["']?[ \t]*(?::|=)[ \t]*\\?["']?(?<secret>[A-Za-z0-9+/=_.~:@!#%^&*-]{12,512})/gi,
    publicPrefix: 0,
    accept: (value) => looksRandom(value, 12),
  },
]

/**
 * Anchors: every string holding a secret some rule reports holds one of these (any case), so a record whose raw text
 * (JSON-escaped, as on disk) has none is never parsed. Literal words, one case-insensitive alternation: V8 scans it
 * close to the speed of a plain character loop, where the same anchors written as character classes (`[Kk][Ee][Yy]`)
 * or a hand-made Aho-Corasick automaton were 1.5-3x slower on the 280k log (docs/benchmarks.md).
 */
export const SECRET_ANCHORS: readonly string[] = [
  ...['sk-', 'sk_', 'rk_live', 'rk_test', 'private key', 'private_key_id'],
  ...['gsk_', 'hf_', 'xai-', 'aiza', 'akia', 'asia', 'abia', 'acca', 'a3t', 'secret_access', 'secretaccess'],
  ...['accountkey=', 'sharedaccesskey=', 'q~', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  ...['glpat-', 'glptt-', 'gldt-', 'glrt-', 'glsoat-', 'glft-', 'glimt-', 'glagent-', 'gloas-', 'glcbt-', 'glc_', 'glsa_'],
  ...['npm_', 'xoxb-', 'xoxp-', 'xoxa-', 'xoxo-', 'xoxr-', 'xoxe-', 'xapp-', 'hooks.slack.com', 'sg.'],
  ...['shpat_', 'shpca_', 'shppa_', 'shpss_', 'hvs.', 'hvb.', 'hvr.', 'dapi', 'dckr_pat_', 'figd_', 'tskey-'],
  ...['lin_api_', 'ntn_', 'pypi-', 'dop_v1_', 'doo_v1_', 'dor_v1_', 'eyj', 'authorization', 'bearer'],
  ...['_key', '_secret', '_token', 'password', 'passwd', '_pwd', '://'],
]

export const SECRET_PREFILTER = new RegExp(SECRET_ANCHORS.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi')

/** The rules' patterns with match indices (`d`), so a group's place is exact. */
const COMPILED = SECRET_RULES.map((rule) => ({ rule, pattern: new RegExp(rule.pattern.source, `${rule.pattern.flags}d`) }))

/** Every secret in one string, in text order; where two rules claim overlapping text the earlier rule keeps it. */
export function detectSecrets(text: string): SecretHit[] {
  const hits: SecretHit[] = []
  for (const { rule, pattern } of COMPILED) {
    pattern.lastIndex = 0
    for (const match of text.matchAll(pattern)) {
      const [start, end] = match.indices?.groups?.['secret'] ?? (match.indices?.[0] as [number, number])
      const value = text.slice(start, end)
      if (value.startsWith(PLACEHOLDER_START)) continue
      if (rule.accept !== undefined && !rule.accept(value)) continue
      if (hits.some((h) => h.start < end && start < h.end)) continue
      hits.push({ kind: rule.kind, start, end })
    }
  }
  return hits.sort((a, b) => a.start - b.start)
}
