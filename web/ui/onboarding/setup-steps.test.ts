import { describe, expect, it } from 'vitest';
import { configFromForm } from '../settings/providers/provider-form';
import { onboardingEn, onboardingZh } from './onboarding-strings';
import {
  connectionNotes,
  CUSTOM_KEY_NAME,
  formForChoice,
  isLocalAddress,
  starterPrompts,
  takesKey,
  tellingFile,
} from './setup-steps';

const PUBLIC = 'https://i.example.org';
const LOOPBACK = 'http://127.0.0.1:5173';

describe('the first-run setup', () => {
  it('fills protocol, address, route, key name and a model to start from the chosen preset, valid as saved', () => {
    const form = formForChoice('anthropic');
    expect(form).toMatchObject({
      preset: 'anthropic',
      protocol: 'anthropic',
      base_url: 'https://api.anthropic.com',
      api_key_env: 'ANTHROPIC_API_KEY',
      route: 'direct',
    });
    expect(form.model).not.toBe('');
    expect(configFromForm(form)).toMatchObject({ protocol: 'anthropic', model: form.model });
    expect(formForChoice('ollama')).toMatchObject({
      base_url: 'http://127.0.0.1:11434/v1',
      route: 'bridge',
      api_key_env: '',
    });
  });

  it('starts a custom server as OpenAI-compatible with its own key name, and keeps what was typed when chosen again', () => {
    const custom = formForChoice('custom', formForChoice('openai'));
    expect(custom).toMatchObject({
      preset: 'custom',
      protocol: 'openai',
      base_url: '',
      model: '',
      api_key_env: CUSTOM_KEY_NAME,
      route: 'direct',
    });
    const typed = { ...custom, base_url: 'http://127.0.0.1:9000/v1', model: 'm' };
    expect(formForChoice('custom', typed)).toBe(typed);
  });

  it('asks for a key for remote presets and custom servers, never for local presets', () => {
    expect(takesKey(formForChoice('openai'))).toBe(true);
    expect(takesKey(formForChoice('custom'))).toBe(true);
    for (const local of ['ollama', 'lm-studio', 'llama-cpp']) expect(takesKey(formForChoice(local))).toBe(false);
  });

  it('gives Ollama the OLLAMA_ORIGINS command with the app’s exact origin, and explains the bridge when it is the route', () => {
    const notes = connectionNotes(formForChoice('ollama'), PUBLIC);
    expect(notes.map((n) => n.key)).toEqual(['ob.noteOllama', 'ob.noteBridge']);
    expect(notes[0]!.command).toBe('OLLAMA_ORIGINS=https://i.example.org ollama serve');
    const direct = connectionNotes({ ...formForChoice('ollama'), route: 'direct' }, PUBLIC);
    expect(direct.map((n) => n.key)).toEqual(['ob.noteOllama', 'ob.noteLocalNetwork']);
  });

  it('warns about Local Network Access only when a public site reaches a local server directly', () => {
    const llama = formForChoice('llama-cpp');
    expect(connectionNotes(llama, PUBLIC).map((n) => n.key)).toContain('ob.noteLocalNetwork');
    expect(connectionNotes(llama, LOOPBACK).map((n) => n.key)).not.toContain('ob.noteLocalNetwork');
    expect(connectionNotes({ ...llama, route: 'bridge' }, PUBLIC).map((n) => n.key)).not.toContain(
      'ob.noteLocalNetwork',
    );
  });

  it('explains CORS for remote servers with the provider and origin filled in; unsure ones and custom servers say what to do', () => {
    expect(connectionNotes(formForChoice('openai'), PUBLIC)).toEqual([
      { key: 'ob.noteCors', params: { provider: 'OpenAI', origin: PUBLIC } },
    ]);
    expect(connectionNotes(formForChoice('deepseek'), PUBLIC)[0]!.key).toBe('ob.noteCorsUnsure');
    const custom = { ...formForChoice('custom'), base_url: 'http://192.168.1.20:8000/v1' };
    expect(connectionNotes(custom, PUBLIC)).toEqual([
      { key: 'ob.noteCorsCustom', params: { origin: PUBLIC } },
      { key: 'ob.noteLocalNetwork' },
    ]);
    expect(connectionNotes(formForChoice('lm-studio'), PUBLIC)[0]!.key).toBe('ob.noteLmStudio');
  });

  it('tells local addresses (loopback, private ranges, .local) from public ones', () => {
    for (const url of [
      'http://localhost:1234',
      'http://127.0.0.1:8080/v1',
      'http://[::1]:11434',
      'http://10.0.0.2',
      'http://172.20.1.1',
      'http://192.168.0.5',
      'http://box.local:80',
    ])
      expect(isLocalAddress(url), url).toBe(true);
    for (const url of ['https://api.openai.com/v1', 'http://172.32.0.1', 'http://8.8.8.8', 'not a url'])
      expect(isLocalAddress(url), url).toBe(false);
  });

  it('offers three workspace prompts and a fourth naming the most telling top-level file', () => {
    const entries = [
      { name: '.gitignore', directory: false },
      { name: 'README.md', directory: false },
      { name: 'src', directory: true },
      { name: 'package.json', directory: false },
      { name: 'vite.config.ts', directory: false },
    ];
    expect(starterPrompts(entries)).toEqual([
      { key: 'ob.starter.structure' },
      { key: 'ob.starter.todos' },
      { key: 'ob.starter.tests' },
      { key: 'ob.starter.file', params: { file: 'package.json' } },
    ]);
    expect(
      tellingFile([
        { name: 'LICENSE', directory: false },
        { name: 'notes.txt', directory: false },
      ]),
    ).toBe('notes.txt');
    expect(
      starterPrompts([
        { name: 'README.md', directory: false },
        { name: 'docs', directory: true },
      ]),
    ).toHaveLength(3);
  });

  it('has every string in Chinese too, with the same placeholders', () => {
    const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [key, en] of Object.entries(onboardingEn)) {
      const zh = onboardingZh[key as keyof typeof onboardingEn];
      expect(zh, key).toBeTruthy();
      expect(names(zh), key).toEqual(names(en));
    }
  });
});
