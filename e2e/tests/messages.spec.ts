import { fakeTest as test, expect, openDemo, writeScript, readRecord, putSettings, openFile } from './fixtures';
import { waitReady } from './editor';

// Messages a server sends for people (window/showMessage and
// window/showMessageRequest) appear as notices; a request's answer is the
// person's choice. The fake server stands in for rust-analyzer.

test('a showMessage appears as a notice; a showMessageRequest is answered with the choice', async ({ page, demo }, testInfo) => {
  const record = testInfo.outputPath('record.jsonl');
  writeScript(demo, {
    recordFile: record,
    messages: [
      { on: 'didOpen', type: 2, message: 'Failed to load workspace: Cargo.toml is missing' },
      { on: 'didOpen', type: 3, message: 'Reload the workspace?', actions: ['Reload', 'Later'] },
    ],
  });
  await putSettings(page, { lsp_auto_start_languages: ['rust'], lsp_server_configs: {} });
  await openDemo(page);
  await openFile(page, 'src/main.rs');
  await waitReady(page);

  const warning = page.locator('.notice', { hasText: 'Cargo.toml is missing' });
  await expect(warning).toBeVisible();
  await expect(warning).toHaveAttribute('data-type', 'warning');
  await expect(warning).toContainText('Message from rust-analyzer');
  const ask = page.locator('.notice', { hasText: 'Reload the workspace?' });
  await ask.getByRole('button', { name: 'Later' }).click();
  await expect(ask).toHaveCount(0);
  await expect.poll(() => readRecord(record).filter((r) => r.kind === 'answer' && r.method === 'window/showMessageRequest')
    .map((r) => r.message.result)).toEqual([{ title: 'Later' }]);

  await warning.getByRole('button', { name: 'Dismiss' }).click();
  await expect(warning).toHaveCount(0);
});
