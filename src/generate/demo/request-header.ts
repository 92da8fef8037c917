/** The demo's request header: the system prompt and the tool schemas the harness sends with every request. */

import type { ToolSchema } from './script-types.ts'

export const SYSTEM_PROMPT = `You are DeepSeek Harness (dsh), a coding agent working in the user's workspace at /home/dev/tabula.

# How to work
- Read the relevant code before changing it. Prefer small, targeted edits over rewrites.
- When you fix a bug, first write a test that reproduces it and watch it fail, then fix the code and run the tests again.
- Run the project's own test command before you report back; never claim tests pass without running them.
- Delegate broad searches across the repository to a subagent when that keeps your own context small.
- Do not commit, push or change git history unless the user asks you to.

# Answering
- Be brief. Lead with what changed and why, name the files, then anything the user must decide.
- Quote file paths relative to the workspace and use backticks for code.

# Environment
- OS: Linux (Debian 13), shell: bash, Node 20.19, npm 10.
- Sandbox: workspace-write. Network access: off.
- Today's date: 2026-09-15.`

const obj = (properties: Record<string, unknown>, required: string[]): unknown => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
})
const str = (description: string): unknown => ({ type: 'string', description })

export const TOOLS: readonly ToolSchema[] = [
  {
    name: 'read',
    description: 'Read a file from the workspace. Returns numbered lines; use offset and limit for large files.',
    inputSchema: obj(
      {
        file_path: str('Path of the file, absolute or relative to the workspace.'),
        offset: { type: 'integer', description: 'First line to read (1-based).' },
        limit: { type: 'integer', description: 'Maximum number of lines to read.' },
      },
      ['file_path'],
    ),
  },
  {
    name: 'edit',
    description: 'Replace an exact string in a file. old_string must occur exactly once unless replace_all is set.',
    inputSchema: obj(
      {
        file_path: str('Path of the file to edit.'),
        old_string: str('The text to replace, exactly as it appears in the file.'),
        new_string: str('The replacement text.'),
        replace_all: { type: 'boolean', description: 'Replace every occurrence.' },
      },
      ['file_path', 'old_string', 'new_string'],
    ),
  },
  {
    name: 'write',
    description: 'Create or overwrite a file with the given content.',
    inputSchema: obj({ file_path: str('Path of the file to write.'), content: str('The complete file content.') }, [
      'file_path',
      'content',
    ]),
  },
  {
    name: 'grep',
    description: 'Search file contents with a regular expression (ripgrep syntax). Returns path:line:text for every match.',
    inputSchema: obj(
      {
        pattern: str('Regular expression to search for.'),
        path: str('File or directory to search in; defaults to the workspace.'),
        glob: str('Only search files whose path matches this glob, e.g. "*.ts".'),
      },
      ['pattern'],
    ),
  },
  {
    name: 'bash',
    description: 'Run a shell command in the workspace and return its output (stdout and stderr, exit code).',
    inputSchema: obj(
      {
        command: str('The command to run.'),
        description: str('What the command does, in a few words.'),
        timeout_ms: { type: 'integer', description: 'Kill the command after this many milliseconds (default 120000).' },
      },
      ['command', 'description'],
    ),
  },
  {
    name: 'todo_write',
    description: 'Replace the task list shown to the user. Keep exactly one item in_progress while you work.',
    inputSchema: obj(
      {
        todos: {
          type: 'array',
          items: obj({ content: { type: 'string' }, status: { enum: ['pending', 'in_progress', 'completed'] } }, [
            'content',
            'status',
          ]),
        },
      },
      ['todos'],
    ),
  },
  {
    name: 'subagent',
    description:
      'Start a subagent with its own context for a focused task (searches, investigations). It cannot see this conversation: ' +
      'put everything it needs in the prompt. Returns the subagent’s final answer.',
    inputSchema: obj(
      {
        description: str('A short label for the task (3-6 words).'),
        prompt: str('The complete task for the subagent.'),
        run_in_background: { type: 'boolean', description: 'Return immediately and report back later.' },
      },
      ['description', 'prompt'],
    ),
  },
]
