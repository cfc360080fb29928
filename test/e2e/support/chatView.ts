// Keel's chat view as a person uses it in the browser: the composer, the messages, the
// approval card, the stop button. Every locator is a data-testid of webview/README.md.
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { keelFrame, openKeelView } from '../harness/keelView.ts';

const TIMEOUT = 30_000;

export class ChatView {
  readonly frame: FrameLocator;

  constructor(readonly page: Page) {
    this.frame = keelFrame(page);
  }

  /** Opens the view from the activity bar and waits until the host's snapshot drew it. */
  async open(): Promise<void> {
    await openKeelView(this.page);
    await this.composer().waitFor({ timeout: TIMEOUT });
  }

  composer(): Locator {
    return this.frame.getByTestId('composer-input');
  }

  messages(): Locator {
    return this.frame.getByTestId('message');
  }

  byRole(role: 'user' | 'assistant'): Locator {
    return this.frame.locator(`[data-testid="message"][data-role="${role}"]`);
  }

  lastAssistant(): Locator {
    return this.byRole('assistant').last();
  }

  approvalCard(): Locator {
    return this.frame.getByTestId('approval-card');
  }

  toolCard(): Locator {
    return this.frame.getByTestId('tool-card').last();
  }

  /** Types into the composer and presses Enter, as a person sends. */
  async send(text: string): Promise<void> {
    const input = this.composer();
    await input.click();
    await input.fill(text);
    await input.press('Enter');
    await this.byRole('user').filter({ hasText: text }).last().waitFor({ timeout: TIMEOUT });
  }

  /** "New chat" in the view's header; waits until no message is shown. */
  async newChat(): Promise<void> {
    await this.frame.getByTestId('new-chat').click();
    await this.messages().first().waitFor({ state: 'detached', timeout: TIMEOUT });
  }

  /** Waits until the last assistant message is final, and returns its text (without the author line). */
  async finishedAnswer(status: 'done' | 'cancelled' | 'error' = 'done'): Promise<string> {
    const message = this.frame.locator(`[data-testid="message"][data-role="assistant"][data-status="${status}"]`).last();
    await message.waitFor({ timeout: TIMEOUT });
    // A tool-call turn is also a finished assistant message: the answer is the last one once
    // the run is over, which is when the Stop button goes away.
    await this.frame.getByTestId('stop').waitFor({ state: 'detached', timeout: TIMEOUT });
    return (await message.locator('.message-body').innerText()).trim();
  }

  /** Opens the last tool card and returns its output text. */
  async toolOutput(): Promise<string> {
    const card = this.toolCard();
    const output = card.getByTestId('tool-output');
    if (!(await output.isVisible())) await card.locator('.tool-card-header').click();
    await output.waitFor({ timeout: TIMEOUT });
    return output.innerText();
  }

  /** What the conversation shows, as [role, text] rows. */
  async transcript(): Promise<[string, string][]> {
    const rows = await this.messages().evaluateAll((elements) =>
      elements.map((element) => [element.getAttribute('data-role') ?? '', (element.querySelector('.message-body')?.textContent ?? '').trim()]),
    );
    return rows.map(([role, text]) => [role ?? '', text ?? '']);
  }
}
