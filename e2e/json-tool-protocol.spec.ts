// Settings → Model → Tool calling "JSON actions" in the built app, against the scripted model server for each
// protocol selector: no request carries a `tools` field, the model's JSON tool_call of `read` runs (its card is in the
// chat), the next request carries the file's content in the untrusted jingwei_tool_result envelope, a malformed reply
// is answered with the protocol error, and the corrected final answer is shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type WireProtocol } from './model-server';
import { chatLog, fillModelForm, openAdvanced, openModelSettings, sendMessage, waitForTurnEnd } from './agent-steps';
import { createFileThroughUi, createPrivateWorkspace, openApp, useServedApp } from './harness';

const served = useServedApp();
beforeAll(async () => openApp(served.browser.page, served.server.url));
/** The envelope as it appears inside a JSON request body (its text is a JSON string there). */
const inBody = (text: string) => JSON.stringify(text).slice(1, -1);

describe.each<WireProtocol>(['openai', 'deepseek', 'anthropic', 'responses'])('JSON actions over %s', (protocol) => {
  let model: ModelServer | undefined;
  afterAll(async () => model?.close());

  it('runs a JSON read, returns it in the envelope, corrects a malformed reply and shows the answer', async () => {
    model = await startModelServer({
      script: [
        { text: '```json\n{"type": "tool_call", "name": "read", "arguments": {"path": "notes.txt"}}\n```' },
        { text: 'The notes say 42.' },
        { text: '{"type": "final", "content": "The notes hold the answer: 42."}' },
      ],
    });
    const { page } = served.browser;
    await createPrivateWorkspace(page, `Json ${protocol}`);
    await createFileThroughUi(page, 'notes.txt', 'the answer is 42\n');
    await page.keyboard.press('Escape');
    const dialog = await openModelSettings(page);
    await fillModelForm(page, { protocol, baseUrl: model.baseUrl(protocol), key: 'sk-e2e' });
    await openAdvanced(dialog);
    await dialog.getByLabel('Tool calling').selectOption({ label: 'JSON actions' });
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByTestId('model-status').getByText('Saved.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'detached' });

    await sendMessage(page, 'What do the notes say?');
    await chatLog(page).getByText('The notes hold the answer: 42.').first().waitFor();
    await waitForTurnEnd(page);
    await chatLog(page).locator('[data-tool="read"]').waitFor();
    expect(model.failures).toEqual([]);
    expect(model.requests).toHaveLength(3);
    for (const r of model.requests) expect(r.body).not.toHaveProperty('tools');
    expect(model.requests[1]!.rawBody).toContain(inBody('{"jingwei_tool_result":{"name":"read","ok":true,"output":"'));
    expect(model.requests[1]!.rawBody).toContain('the answer is 42');
    expect(model.requests[1]!.rawBody).toContain(inBody('"untrusted_tool_data":true}'));
    expect(model.requests[2]!.rawBody).toContain(
      inBody(
        '{"jingwei_tool_result":{"name":"json_action_protocol","ok":false,"output":"Error E_JSON_ACTION_NO_JSON: ',
      ),
    );
  });
});
