import * as l10n from '@vscode/l10n';
import type { SandboxDetection, SandboxMode } from './sandboxTypes';

/**
 * The protections the OS sandbox gives a command (README, "Command sandbox"):
 * - `files`: writes stay in the workspace, protected paths (.git, .vscode, .keel, rules files) unchangeable
 * - `network`: no network unless the person approves it
 * - `sockets`: no connection to the host's daemons through Unix sockets (Docker...)
 * - `secrets`: secret files (~/.ssh, credentials, Keel's own folder) hidden
 * - `processes`: the person's other processes neither visible nor signalled
 * - `readOnlyRules`: a command an allow rule runs gets a read-only workspace (without it,
 *   only commands Keel knows to only read run unasked)
 */
export const protections = ['files', 'network', 'sockets', 'secrets', 'processes', 'readOnlyRules'] as const;
export type Protection = (typeof protections)[number];

/** What commands lack here, and why; `missing` empty when every protection holds. */
export interface SandboxShortfall {
  missing: Protection[];
  /** `off`: the person's setting; `unavailable`: no sandbox on this machine; `partial`: a sandbox that lacks some; `refused`: commands do not run at all. */
  kind: 'off' | 'unavailable' | 'partial' | 'refused' | 'none';
  /** Why, in the detector's words (English, from the system). */
  reason?: string;
  /** The backend in use has not been run by Keel's own tests (macOS Seatbelt). */
  untested?: boolean;
}

/** A weakness a backend may name (the seccomp filter not applied, ...): only its protection is read. */
interface NamedWeakness {
  protection: string;
  reason?: string;
}

/**
 * What the sandbox setting and what was detected leave missing. Reads the backend's own list
 * of weaknesses where it gives one (`weaknesses`, e.g. no seccomp filter: host sockets
 * reachable); otherwise what the backend is decides.
 */
export function sandboxShortfall(mode: SandboxMode, found: SandboxDetection): SandboxShortfall {
  if (mode === 'off') return { missing: [...protections], kind: 'off' };
  if (!found.available) {
    if (mode === 'on') return { missing: [], kind: 'refused', reason: found.reason };
    return { missing: [...protections], kind: 'unavailable', reason: found.reason };
  }
  const missing = new Set<Protection>();
  const weaknesses = (found.backend as { weaknesses?: readonly NamedWeakness[] }).weaknesses;
  for (const w of weaknesses ?? []) {
    const protection = protectionOf(w.protection);
    if (protection) missing.add(protection);
  }
  const seatbelt = found.backend.kind === 'seatbelt';
  // Seatbelt shares the process table, and without a named list nothing says it stops Unix sockets.
  if (seatbelt) missing.add('processes');
  if (seatbelt && weaknesses === undefined) missing.add('sockets');
  const reasons = (weaknesses ?? []).flatMap((w) => (w.reason ? [w.reason] : []));
  const out: SandboxShortfall = {
    missing: protections.filter((p) => missing.has(p)),
    kind: missing.size > 0 || reasons.length > 0 ? 'partial' : 'none',
  };
  if (reasons.length > 0) out.reason = reasons.join('; ');
  if (seatbelt) out.untested = true;
  return out;
}

/** A backend's weakness by the protection it takes away; one of another name is still told through its reason. */
function protectionOf(name: string): Protection | undefined {
  if (name === 'host-sockets') return 'sockets';
  return (protections as readonly string[]).includes(name) ? (name as Protection) : undefined;
}

/** One protection in the person's language. */
function protectionText(p: Protection): string {
  switch (p) {
    case 'files':
      return l10n.t('writes confined to the workspace, with .git, .vscode, .keel and rules files kept unchanged');
    case 'network':
      return l10n.t('no network unless you approve it');
    case 'sockets':
      return l10n.t("no connections to your machine's services through Unix sockets (Docker and the like)");
    case 'secrets':
      return l10n.t('secret files (~/.ssh, credentials, Keel settings) hidden');
    case 'processes':
      return l10n.t('your other processes out of sight and out of reach');
    case 'readOnlyRules':
      return l10n.t('commands allowed by a rule held to reading (here only commands Keel knows to only read run unasked)');
  }
}

/**
 * The shortfall in plain words for the view's notice and the CLI's stderr: which protections
 * commands run without, and why. Undefined when every protection holds.
 */
export function describeShortfall(s: SandboxShortfall): string | undefined {
  const list = s.missing.map(protectionText).join('; ');
  const why = s.reason ?? '';
  switch (s.kind) {
    case 'none':
      return undefined;
    case 'off':
      return l10n.t('The OS sandbox is off (your setting): commands run with your full access, without: {0}.', list);
    case 'refused':
      return l10n.t('No OS sandbox is available here ({0}) and the sandbox setting is "on": commands are refused.', why);
    case 'unavailable':
      return l10n.t('No OS sandbox is available here ({0}): commands run with your full access, without: {1}.', why, list);
    case 'partial': {
      const parts = [
        list ? l10n.t('The OS sandbox here lacks: {0}.', list) : undefined,
        why ? l10n.t('Why: {0}.', why) : undefined,
        s.untested ? l10n.t("It is macOS Seatbelt, which Keel's own tests have not run.") : undefined,
      ];
      return parts.filter((p) => p !== undefined).join(' ');
    }
  }
}
