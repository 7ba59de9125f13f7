#!/usr/bin/env node
// Example MCP stdio server built with the official SDK: `add` and `shout`. Configure it in bridge.json:
//   {"mcp_servers": {"demo": {"command": ["node", "/path/to/bridge/examples/mcp-server.mjs"]}}}
// and its tools appear as mcp__demo__add and mcp__demo__shout.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'i-bridge-demo', version: '1.0.0' });

server.registerTool(
  'add',
  { description: 'Add two numbers.', inputSchema: { a: z.number(), b: z.number() } },
  async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
);

server.registerTool(
  'shout',
  { description: 'Upper-case a text; fails on an empty one.', inputSchema: { text: z.string() } },
  async ({ text }) =>
    text
      ? { content: [{ type: 'text', text: text.toUpperCase() }] }
      : { isError: true, content: [{ type: 'text', text: 'nothing to shout' }] },
);

await server.connect(new StdioServerTransport());
