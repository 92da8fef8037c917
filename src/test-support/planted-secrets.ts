/**
 * Test secrets, one per detector kind, made from a seed at run time: random bodies in each format's published shape
 * (none is a real credential, and no secret-shaped literal sits in the repository for a scanner to flag). Each comes
 * with the text a log would carry it in (`export GITHUB_TOKEN=…`, a `curl -H 'Authorization: Bearer …'`), the value
 * itself and the values a detector reports for that text (a GCP key file holds two: its key id and its private key).
 */

import { Rng } from '../generate/index.ts'
import type { SecretKind } from '../core/secrets/index.ts'

export interface PlantedSecret {
  readonly kind: SecretKind
  /** The text that carries it, as a tool or a user would write it. */
  readonly text: string
  /** The secret: what must be found and must not survive redaction. */
  readonly value: string
  /** Other secrets the same text carries (kind and value), found as well. */
  readonly also?: readonly { readonly kind: SecretKind; readonly value: string }[]
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const DIGITS = '0123456789'
const HEX = '0123456789abcdef'
const ALNUM = UPPER + LOWER + DIGITS
const B64URL = ALNUM + '-_'
const B64 = ALNUM + '+/'

function draw(rng: Rng, alphabet: string, n: number): string {
  let out = ''
  for (let i = 0; i < n; i++) out += alphabet[rng.int(0, alphabet.length - 1)]
  return out
}

/** Random text in an alphabet that starts and ends with a letter or digit (so no boundary rule sees `-` or `_`). */
function body(rng: Rng, alphabet: string, n: number): string {
  if (n < 2) return draw(rng, ALNUM, n)
  return draw(rng, ALNUM, 1) + draw(rng, alphabet, n - 2) + draw(rng, ALNUM, 1)
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url')
}

function pemKey(rng: Rng, label: string): string {
  const lines = Array.from({ length: 8 }, () => draw(rng, B64, 64))
  return `-----BEGIN ${label}-----\nMII${draw(rng, B64, 61)}\n${lines.join('\n')}\n${draw(rng, B64, 20)}==\n-----END ${label}-----`
}

/** Every kind, in `SECRET_KINDS` order, seeded. */
export function plantedSecrets(seed = 1): PlantedSecret[] {
  const rng = new Rng(seed)
  const plain = (kind: SecretKind, value: string, text = `the value is ${value} here`): PlantedSecret => ({ kind, text, value })
  const gcpKeyId = draw(rng, HEX, 40)
  const gcpPem = pemKey(rng, 'PRIVATE KEY')
  const gcp = JSON.stringify(
    {
      type: 'service_account',
      project_id: 'demo-project',
      private_key_id: gcpKeyId,
      private_key: `${gcpPem}\n`,
      client_email: 'robot@demo-project.iam.gserviceaccount.com',
    },
    null,
    2,
  )
  const jwt = `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url(`{"sub":"${draw(rng, DIGITS, 10)}","iat":${1_700_000_000 + rng.int(0, 1e6)}}`)}.${body(rng, B64URL, 43)}`
  const awsSecret = draw(rng, B64, 40)
  const bearer = body(rng, B64URL, 40)
  const urlPassword = body(rng, ALNUM, 18)
  const envValue = body(rng, ALNUM, 32)
  const azureKey = `${draw(rng, B64, 86)}==`
  const slackHook = `T${draw(rng, UPPER + DIGITS, 8)}/B${draw(rng, UPPER + DIGITS, 10)}/${draw(rng, ALNUM, 24)}`
  const list: PlantedSecret[] = [
    plain('deepseek-api-key', `sk-${draw(rng, HEX, 32)}`),
    plain('openai-api-key', `sk-proj-${body(rng, B64URL, 156)}`),
    plain('anthropic-api-key', `sk-ant-api03-${body(rng, B64URL, 93)}AA`),
    plain('openrouter-api-key', `sk-or-v1-${draw(rng, HEX, 64)}`),
    plain('groq-api-key', `gsk_${draw(rng, ALNUM, 52)}`),
    plain('huggingface-token', `hf_${draw(rng, UPPER + LOWER, 34)}`),
    plain('xai-api-key', `xai-${draw(rng, ALNUM, 80)}`),
    plain('google-api-key', `AIza${body(rng, B64URL, 35)}`),
    plain('aws-access-key-id', `AKIA${draw(rng, UPPER + DIGITS, 16)}`),
    { kind: 'aws-secret-access-key', text: `[default]\naws_secret_access_key = ${awsSecret}\n`, value: awsSecret },
    { kind: 'gcp-service-account', text: gcp, value: gcpKeyId, also: [{ kind: 'private-key', value: `${gcpPem}` }] },
    {
      kind: 'azure-storage-key',
      text: `DefaultEndpointsProtocol=https;AccountName=demo;AccountKey=${azureKey};EndpointSuffix=core.windows.net`,
      value: azureKey,
    },
    plain('azure-client-secret', `${draw(rng, ALNUM, 3)}${draw(rng, DIGITS, 1)}Q~${body(rng, ALNUM + '_~.-', 34)}`),
    plain('github-token', `ghp_${draw(rng, ALNUM, 36)}`),
    plain('gitlab-token', `glpat-${body(rng, B64URL, 20)}`),
    plain('npm-token', `npm_${draw(rng, ALNUM, 36)}`),
    plain('slack-token', `xoxb-${draw(rng, DIGITS, 11)}-${draw(rng, DIGITS, 13)}-${draw(rng, ALNUM, 24)}`),
    { kind: 'slack-webhook', text: `curl -X POST https://hooks.slack.com/services/${slackHook} -d @msg.json`, value: slackHook },
    plain('stripe-key', `sk_live_${draw(rng, ALNUM, 32)}`),
    plain('sendgrid-key', `SG.${body(rng, B64URL, 22)}.${body(rng, B64URL, 43)}`),
    plain('shopify-token', `shpat_${draw(rng, HEX, 32)}`),
    plain('grafana-token', `glsa_${draw(rng, ALNUM, 32)}_${draw(rng, HEX, 8)}`),
    plain('vault-token', `hvs.${body(rng, B64URL, 100)}`),
    plain('databricks-token', `dapi${draw(rng, HEX, 32)}`),
    plain('docker-token', `dckr_pat_${body(rng, B64URL, 27)}`),
    plain('figma-token', `figd_${body(rng, B64URL, 40)}`),
    plain('tailscale-key', `tskey-auth-${draw(rng, ALNUM, 12)}-${draw(rng, ALNUM, 30)}`),
    plain('linear-api-key', `lin_api_${draw(rng, ALNUM, 40)}`),
    plain('notion-token', `ntn_${draw(rng, DIGITS, 11)}${draw(rng, ALNUM, 35)}`),
    plain('pypi-token', `pypi-AgEIcHlwaS5vcmc${body(rng, B64URL, 60)}`),
    plain('digitalocean-token', `dop_v1_${draw(rng, HEX, 64)}`),
    plain('jwt', jwt, `cookie: session=${jwt}; Path=/`),
    { kind: 'private-key', text: `$ cat ~/.ssh/id_rsa\n${pemKey(rng, 'RSA PRIVATE KEY')}\n`, value: '' },
    {
      kind: 'authorization-header',
      text: `curl -H 'Authorization: Bearer ${bearer}' https://api.example.com/v1/me`,
      value: bearer,
    },
    { kind: 'url-password', text: `DATABASE_URL=postgres://app:${urlPassword}@db.internal:5432/app`, value: urlPassword },
    { kind: 'env-assignment', text: `# .env\nPAYMENTS_API_KEY=${envValue}\nDEBUG=false\n`, value: envValue },
  ]
  return list.map((p) =>
    p.kind === 'private-key'
      ? { ...p, value: (/-----BEGIN[\s\S]*-----END RSA PRIVATE KEY-----/.exec(p.text) as RegExpExecArray)[0] }
      : p,
  )
}

/** Every secret value a planted text carries: its own and the others it holds. */
export function plantedValues(planted: PlantedSecret): { kind: SecretKind; value: string }[] {
  return [{ kind: planted.kind, value: planted.value }, ...(planted.also ?? [])]
}
