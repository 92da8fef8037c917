/**
 * Each secret kind in a few words, for sentences ("the model was sent your AWS secret access key at steps 2.1–4.3")
 * and the review of a redaction. The detectors' `name`s say how a kind is recognised; these say what it is.
 */

import type { SecretKind } from './detectors.ts'

export const SECRET_KIND_LABELS: Readonly<Record<SecretKind, string>> = {
  'deepseek-api-key': 'DeepSeek API key',
  'openai-api-key': 'OpenAI API key',
  'anthropic-api-key': 'Anthropic API key',
  'openrouter-api-key': 'OpenRouter API key',
  'groq-api-key': 'Groq API key',
  'huggingface-token': 'Hugging Face token',
  'xai-api-key': 'xAI API key',
  'google-api-key': 'Google API key',
  'aws-access-key-id': 'AWS access key id',
  'aws-secret-access-key': 'AWS secret access key',
  'gcp-service-account': 'Google Cloud service-account key',
  'azure-storage-key': 'Azure storage key',
  'azure-client-secret': 'Azure client secret',
  'github-token': 'GitHub token',
  'gitlab-token': 'GitLab token',
  'npm-token': 'npm token',
  'slack-token': 'Slack token',
  'slack-webhook': 'Slack webhook URL',
  'stripe-key': 'Stripe key',
  'sendgrid-key': 'SendGrid API key',
  'shopify-token': 'Shopify token',
  'grafana-token': 'Grafana token',
  'vault-token': 'Vault token',
  'databricks-token': 'Databricks token',
  'docker-token': 'Docker Hub token',
  'figma-token': 'Figma token',
  'tailscale-key': 'Tailscale key',
  'linear-api-key': 'Linear API key',
  'notion-token': 'Notion token',
  'pypi-token': 'PyPI token',
  'digitalocean-token': 'DigitalOcean token',
  jwt: 'JSON Web Token',
  'private-key': 'private key',
  'authorization-header': 'Authorization credential',
  'url-password': 'password in a URL',
  'env-assignment': '.env secret',
}

/** The label of a kind, or the kind itself for one this build does not know (a newer producer's). */
export function secretKindLabel(kind: string): string {
  return Object.hasOwn(SECRET_KIND_LABELS, kind) ? SECRET_KIND_LABELS[kind as SecretKind] : kind
}
