import * as l10n from '@vscode/l10n';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { ClipboardEvent, DragEvent, KeyboardEvent } from 'react';
import { MAX_IMAGES_PER_MESSAGE } from '../../../src/protocol/limits';
import type { ImageAttachment } from '../../../src/protocol/uiMessage';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Badge } from '../../ui/Badge';
import { IconButton } from '../../ui/IconButton';
import { TextArea } from '../../ui/TextArea';
import { AttachmentStrip } from './AttachmentStrip';
import { CompletionPopup, completionOptionId } from './CompletionPopup';
import type { CompletionItem } from './CompletionPopup';
import { HelpBox } from './HelpBox';
import { ModeSwitch } from '../plan/ModeSwitch';
import { ACCEPTED_IMAGE_TYPES, readImageFile } from './imageFiles';
import { composerKeyIntent } from './keyIntent';
import { findMentionQuery, insertMention } from './mentionQuery';
import { mcpCompletions, parseMcpSlash } from './mcpSlash';
import type { McpPromptView, McpResourceView } from '../../../src/protocol/mcpStatus';
import { SLASH_COMMANDS, parseSlashCommand, slashCompletions } from './slashCommands';
import { setupCommandOf, setupCompletions, useSetupCommands } from './setupSlash';
import type { SlashEntry } from '../../../src/protocol/hostMethods';
import type { ParsedSlash, SlashCommandInfo } from './slashCommands';
import { contextChoices, fileChoice, resourceChoices, sameMention } from './contextMentions';
import type { MentionChoice } from './contextMentions';
import { carriesUris, droppedUris } from './droppedUris';
import { joinDraft } from './joinDraft';
import type { ComposerDraft } from './joinDraft';
import { useFileSearch } from './useFileSearch';
import type { FileHit } from './useFileSearch';

type Draft = ComposerDraft;

const EMPTY_DRAFT: Draft = { text: '', mentions: [], images: [], mode: undefined };

type Popup =
  | { kind: 'slash'; commands: readonly SlashCommandInfo[] }
  | { kind: 'mention'; choices: readonly MentionChoice[] }
  | null;

/**
 * Where the person writes. Enter sends (queued by the host while a run is going),
 * Shift+Enter breaks the line, `@` completes files, `/` completes commands, pasted or
 * chosen images are attached. A draft that fails to send comes back.
 */
export function Composer() {
  const bridge = useBridge();
  const running = useMeta((meta) => meta.run.running);
  const queued = useMeta((meta) => meta.run.queued);
  const prefill = useMeta((meta) => meta.prefill);
  const mcpPrompts = useMeta((meta) => meta.mcp.prompts);
  const mcpResources = useMeta((meta) => meta.mcp.resources);
  const readOnly = useMeta((meta) => meta.session.readOnly);
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [closedFor, setClosedFor] = useState<string | null>(null);
  const [showHelp, setShowHelp] = useState(false);
  const [dropping, setDropping] = useState(false);
  const composing = useRef(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const popupId = useId();

  const mentionQuery = findMentionQuery(draft.text, caret);
  const hits = useFileSearch(mentionQuery ? mentionQuery.query : null);
  const setupCommands = useSetupCommands(draft.text.startsWith('/'));
  const popup = choosePopup(draft.text, hits, mentionQuery ? mentionQuery.query : null, closedFor, mcpPrompts, setupCommands, mcpResources);
  const items = popupItems(popup);
  const activeIndex = items.length > 0 ? Math.min(active, items.length - 1) : 0;

  useEffect(() => input.current?.focus(), []);

  useEffect(() => {
    if (!prefill) return;
    const next = prefill.add ? joinDraft(current.current, prefill) : { text: prefill.text ?? '', mentions: prefill.mentions ?? [], images: [], mode: prefill.mode };
    setDraft(next);
    pendingCaret.current = Math.min(prefill.caret ?? Infinity, next.text.length);
    input.current?.focus();
  }, [prefill]);

  // Put the caret where an inserted mention ends, once the new text is in the textarea.
  useLayoutEffect(() => {
    const element = input.current;
    if (pendingCaret.current === null || !element) return;
    element.setSelectionRange(pendingCaret.current, pendingCaret.current);
    setCaret(pendingCaret.current);
    pendingCaret.current = null;
  }, [draft.text]);

  const update = (patch: Partial<Draft>): void => setDraft((latest) => ({ ...latest, ...patch }));

  const current = useRef(draft);
  current.current = draft;

  const addImages = async (files: readonly File[]): Promise<void> => {
    const added: ImageAttachment[] = [];
    for (const file of files) {
      const read = await readImageFile(file);
      if (read.ok) added.push(read.image);
      else bridge.reportProblem(l10n.t('Could not attach: {0}.', read.reason));
    }
    const room = MAX_IMAGES_PER_MESSAGE - current.current.images.length;
    if (added.length > room) bridge.reportProblem(l10n.t('A message can carry at most {0} images.', MAX_IMAGES_PER_MESSAGE));
    const kept = added.slice(0, Math.max(0, room));
    if (kept.length === 0) return;
    setDraft((latest) => ({ ...latest, images: [...latest.images, ...kept].slice(0, MAX_IMAGES_PER_MESSAGE) }));
  };

  const runSlash = async (parsed: ParsedSlash, sent: Draft): Promise<void> => {
    if (parsed.kind === 'unknown') {
      // A command file or skill: the core expands `/name arguments` when the message is sent.
      // Asked afresh, so a draft filled from outside (the palette) does not race the list.
      const fresh = (await bridge.call('setup.slashCommands', {}))?.commands ?? setupCommands;
      if (setupCommandOf(sent.text, fresh)) return sendDraft(sent);
      bridge.reportProblem(l10n.t('There is no /{0} command. Type /help for the list.', parsed.name));
      return;
    }
    if (parsed.name === 'plan' && !parsed.argument) {
      bridge.reportProblem(l10n.t('Say what to plan: /plan <task>'));
      return;
    }
    setDraft(EMPTY_DRAFT);
    switch (parsed.name) {
      case 'new':
        return bridge.newChat();
      case 'sessions':
        return bridge.showPanel('sessions');
      case 'compact':
        return bridge.compact();
      case 'worktree':
        await bridge.call('command.run', { command: 'keel.newChatInWorktree', args: [parsed.argument] });
        return;
      case 'help':
        setShowHelp(true);
        return;
      case 'plan': {
        const result = await bridge.send({ ...sent, text: parsed.argument, mode: 'plan' });
        if (!result) restore(sent);
        return;
      }
    }
  };

  /** Files and folders dropped on the composer (from VS Code's explorer or tabs) join the draft as chips. */
  const onDrop = (event: DragEvent<HTMLDivElement>): void => {
    setDropping(false);
    if (readOnly !== undefined) return;
    const images = [...event.dataTransfer.files].filter((f) => f.type.startsWith('image/'));
    const uris = droppedUris((type) => event.dataTransfer.getData(type));
    if (uris.length === 0 && images.length === 0) return;
    event.preventDefault();
    if (uris.length === 0) void addImages(images);
    else void addDropped(uris);
  };

  const addDropped = async (uris: string[]): Promise<void> => {
    const result = await bridge.call('mentions.fromUris', { uris });
    if (!result) return;
    if (result.outside > 0) bridge.reportProblem(l10n.t('Only files and folders of this workspace can be added ({0} left out).', result.outside));
    if (result.mentions.length === 0) return;
    setDraft((latest) => ({ ...latest, mentions: [...latest.mentions, ...result.mentions.filter((m) => !latest.mentions.some((k) => sameMention(k, m)))] }));
    input.current?.focus();
  };

  const restore = (lost: Draft): void => setDraft((latest) => (latest.text || latest.images.length ? latest : lost));

  const submit = async (): Promise<void> => {
    const sent = draft;
    setClosedFor(null);
    const mcp = parseMcpSlash(sent.text, mcpPrompts);
    const slash = parseSlashCommand(sent.text);
    if (mcp) {
      // An MCP prompt becomes the message: the server fills it, then it is sent as if typed.
      if (mcp.kind === 'problem') return bridge.reportProblem(mcp.message);
      setDraft(EMPTY_DRAFT);
      const text = await (await bridge.call('mcp.prompt', { server: mcp.prompt.server, prompt: mcp.prompt.name, args: mcp.args }))?.text;
      const result = text?.trim() ? await bridge.send({ ...sent, text }) : undefined;
      if (!result) restore(sent);
    } else if (slash && sent.images.length === 0) {
      await runSlash(slash, sent);
    } else if (sent.text.trim() || sent.images.length > 0) {
      await sendDraft(sent);
    }
    input.current?.focus();
  };

  const sendDraft = async (sent: Draft): Promise<void> => {
    setDraft(EMPTY_DRAFT);
    const result = await bridge.send(sent);
    if (!result) restore(sent);
  };

  const pick = (index: number): void => {
    if (popup?.kind === 'slash') {
      const command = popup.commands[index];
      if (!command) return;
      const builtin = SLASH_COMMANDS.find((c) => c.name === command.name);
      if (builtin && !builtin.argument) {
        void runSlash({ kind: 'command', name: builtin.name, argument: '' }, draft);
      } else {
        const text = `/${command.name} `;
        update({ text });
        setCaret(text.length);
        pendingCaret.current = text.length;
      }
      return;
    }
    if (popup?.kind === 'mention' && mentionQuery) {
      const choice = popup.choices[index];
      if (!choice) return;
      const { mention } = choice;
      // Without a mention (@url) the text stays open for the address to be typed after it.
      const next = insertMention(draft.text, mentionQuery, choice.insert, { open: mention === undefined });
      const known = mention === undefined || draft.mentions.some((m) => sameMention(m, mention));
      update({ text: next.text, mentions: known ? draft.mentions : [...draft.mentions, mention] });
      // The caret moves in the same render as the text, or the old caret would read a bogus @-query.
      setCaret(next.caret);
      pendingCaret.current = next.caret;
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    const intent = composerKeyIntent(event.nativeEvent, items.length > 0, composing.current);
    if (intent === 'none' || intent === 'newline') return;
    event.preventDefault();
    if (intent === 'send' && readOnly === undefined) void submit();
    else if (intent === 'next') setActive((activeIndex + 1) % items.length);
    else if (intent === 'previous') setActive((activeIndex - 1 + items.length) % items.length);
    else if (intent === 'pick') pick(activeIndex);
    else if (intent === 'close') setClosedFor(draft.text);
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>): void => {
    const files = [...event.clipboardData.files].filter((file) => file.type.startsWith('image/'));
    if (files.length === 0) return; // plain text: let the textarea take it
    event.preventDefault();
    void addImages(files);
  };

  const canSend = readOnly === undefined && (draft.text.trim().length > 0 || draft.images.length > 0);

  return (
    <div
      className="composer"
      data-readonly={readOnly !== undefined}
      data-dropping={dropping}
      data-testid="composer"
      onDragOver={(event) => {
        if (readOnly !== undefined || !(carriesUris([...event.dataTransfer.types]) || event.dataTransfer.types.includes('Files'))) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setDropping(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropping(false);
      }}
      onDrop={onDrop}
    >
      {showHelp ? <HelpBox onClose={() => setShowHelp(false)} /> : null}
      {items.length > 0 ? (
        <CompletionPopup
          id={popupId}
          items={items}
          active={activeIndex}
          label={popup?.kind === 'slash' ? l10n.t('Commands') : l10n.t('Files')}
          onPick={pick}
        />
      ) : null}
      <AttachmentStrip
        mentions={draft.mentions}
        images={draft.images}
        planMode={draft.mode === 'plan'}
        onRemoveMention={(index) => update({ mentions: draft.mentions.filter((_, i) => i !== index) })}
        onRemoveImage={(index) => update({ images: draft.images.filter((_, i) => i !== index) })}
        onLeavePlanMode={() => update({ mode: undefined })}
      />
      <div className="composer-row">
        <TextArea
          ref={input}
          value={draft.text}
          label={l10n.t('Message Keel')}
          placeholder={
            readOnly !== undefined
              ? l10n.t('Read-only here: this conversation is open for writing in another window')
              : running
                ? l10n.t('Queue a message for when Keel is done…')
                : l10n.t('Ask Keel… (@ for files, / for commands)')
          }
          disabled={readOnly !== undefined}
          testId="composer-input"
          ariaControls={items.length > 0 ? popupId : undefined}
          ariaExpanded={items.length > 0}
          ariaActiveDescendant={items.length > 0 ? completionOptionId(popupId, activeIndex) : undefined}
          onChange={(text, at) => {
            update({ text });
            setCaret(at);
            setActive(0);
          }}
          onSelect={setCaret}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onCompositionStart={() => {
            composing.current = true;
          }}
          onCompositionEnd={() => {
            composing.current = false;
          }}
        />
      </div>
      <div className="composer-actions">
        <ModeSwitch />
        <IconButton icon="file-media" label={l10n.t('Attach images')} disabled={readOnly !== undefined} onClick={() => fileInput.current?.click()} />
        <input
          ref={fileInput}
          className="composer-file-input"
          type="file"
          accept={ACCEPTED_IMAGE_TYPES}
          multiple
          aria-hidden="true"
          tabIndex={-1}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            void addImages(files);
          }}
        />
        <span className="composer-spacer" />
        {queued > 0 ? (
          <Badge title={l10n.t('Messages waiting for the current run')} testId="queued-count">
            {l10n.t('{0} queued', queued)}
          </Badge>
        ) : null}
        {running ? <IconButton icon="debug-stop" label={l10n.t('Stop')} testId="stop" onClick={() => void bridge.call('session.cancel', {})} /> : null}
        <IconButton
          icon="send"
          label={running ? l10n.t('Queue message') : l10n.t('Send')}
          testId="send"
          disabled={!canSend}
          onClick={() => void submit()}
        />
      </div>
    </div>
  );
}

function choosePopup(
  text: string,
  hits: readonly FileHit[],
  mentionQuery: string | null,
  closedFor: string | null,
  mcpPrompts: readonly McpPromptView[],
  setupCommands: readonly SlashEntry[],
  mcpResources: readonly McpResourceView[],
): Popup {
  if (closedFor === text) return null;
  const builtins = slashCompletions(text);
  const setup = setupCompletions(text, setupCommands).filter((c) => !builtins.some((b) => b.name === c.name));
  const commands = [...builtins, ...setup, ...mcpCompletions(text, mcpPrompts)];
  if (commands.length > 0) return { kind: 'slash', commands };
  if (mentionQuery === null) return null;
  const choices = [...contextChoices(mentionQuery), ...resourceChoices(mentionQuery, mcpResources), ...hits.map(fileChoice)];
  if (choices.length > 0) return { kind: 'mention', choices };
  return null;
}

function popupItems(popup: Popup): CompletionItem[] {
  if (!popup) return [];
  if (popup.kind === 'slash') {
    return popup.commands.map((command) => ({
      key: command.name,
      icon: command.setup === 'skill' ? 'book' : command.setup === 'command' ? 'symbol-event' : 'terminal',
      label: `/${command.name}${command.argument ? ` ${command.argument}` : ''}`,
      detail: command.description,
    }));
  }
  return popup.choices.map(({ key, icon, label, detail }) => (detail === undefined ? { key, icon, label } : { key, icon, label, detail }));
}
