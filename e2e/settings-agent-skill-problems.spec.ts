// Settings → Agent → Skills in the built app (issue 20: skill problems reach the UI): a workspace with one valid
// and one broken SKILL.md shows the valid skill by name and the broken one's problem with its code.
import { beforeAll, describe, expect, it } from 'vitest';
import { createFileThroughUi, createPrivateWorkspace, openApp, useServedApp } from './harness';

const served = useServedApp();
beforeAll(async () => openApp(served.browser.page, served.server.url));

describe('Settings → Agent → Skills', () => {
  it('lists the skills found and each problem with its code', async () => {
    const { page } = served.browser;
    await createPrivateWorkspace(page, 'Skill problems');
    await createFileThroughUi(
      page,
      '.agents/skills/good/SKILL.md',
      '---\nname: good\ndescription: A skill that works.\n---\nDo the thing.\n',
    );
    await page.keyboard.press('Escape');
    await createFileThroughUi(page, '.agents/skills/bad/SKILL.md', '---\nname: not a valid name!\n---\nBody.\n');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('tab', { name: 'Agent' }).click();
    const skills = settings.getByRole('region', { name: 'Skills' });
    await skills.getByText('1 skill(s): good.').waitFor();
    const problems = skills.getByRole('list', { name: 'Skill problems' }).getByRole('listitem');
    expect(await problems.count()).toBe(1);
    expect(await problems.first().textContent()).toMatch(/^E_SKILL_\w+ .*bad/);
  });
});
