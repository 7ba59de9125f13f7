// The set of tools one agent run can call. Built-in, plugin and bridge tools register here; every registration
// returns its unregister function (STYLE.md: no registries without unregister). Argument schemas are compiled
// once per registration.
import { HarnessError, quoteUntrusted } from '../contracts';
import type { ToolSchema } from '../contracts';
import type { ToolDefinition } from '../contracts';
import { compileSchema, isObjectSchema, type SchemaCheck } from '../contracts';

/** Seed 000 §1: 1–64 ASCII letters, digits, `-` or `_`. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

interface Entry {
  def: ToolDefinition;
  check: SchemaCheck;
}

export class ToolRegistry {
  private readonly tools = new Map<string, Entry>();

  /** Adds a tool. Refuses bad names, duplicates (no tool may replace another) and non-object schemas. */
  register(def: ToolDefinition): () => void {
    const name = def.schema.name;
    if (!TOOL_NAME_PATTERN.test(name)) {
      throw new HarnessError(
        'E_TOOL_NAME_INVALID',
        `The tool name ${quoteUntrusted(name, 80)} is not allowed. Use 1–64 ASCII letters, digits, "-" or "_".`,
        { name: typeof name === 'string' ? name.slice(0, 80) : String(typeof name) },
      );
    }
    if (this.tools.has(name)) {
      throw new HarnessError(
        'E_TOOL_DUPLICATE',
        `A tool named "${name}" is already registered. Rename one of them; a tool never replaces another.`,
        { name },
      );
    }
    if (!isObjectSchema(def.schema.parameters)) {
      throw new HarnessError(
        'E_TOOL_SCHEMA_INVALID',
        `The parameters schema of tool "${name}" must be a JSON schema with "type": "object".`,
        { name },
      );
    }
    let check: SchemaCheck;
    try {
      check = compileSchema(def.schema.parameters, 'arguments');
    } catch (error) {
      throw new HarnessError(
        'E_TOOL_SCHEMA_INVALID',
        `The parameters schema of tool "${name}" could not be compiled: ${String(error)}. Fix the schema.`,
        { name },
      );
    }
    const entry: Entry = { def, check };
    this.tools.set(name, entry);
    return () => {
      if (this.tools.get(name) === entry) this.tools.delete(name);
    };
  }

  get(name: string): ToolDefinition | undefined {
    return this.tools.get(name)?.def;
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** Public schemas for the model, in registration order (stable order keeps the prompt prefix cacheable). */
  schemas(filter?: (def: ToolDefinition) => boolean): ToolSchema[] {
    const out: ToolSchema[] = [];
    for (const { def } of this.tools.values()) {
      if (filter && !filter(def)) continue;
      out.push({ name: def.schema.name, description: def.schema.description, parameters: def.schema.parameters });
    }
    return out;
  }

  /** Checks parsed arguments against the tool's schema: `[]` when valid, else `At arguments.x: …` lines. */
  checkArguments(name: string, args: unknown): string[] {
    const entry = this.tools.get(name);
    if (!entry) return [`Unknown tool "${name}".`];
    return entry.check(args);
  }
}
