import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isGone } from '../goneErrors';

type Env = Record<string, string | undefined>;

/**
 * The region of the person's AWS profile in their shared config file (`~/.aws/config`, or
 * AWS_CONFIG_FILE): `[default]` for the default profile, `[profile NAME]` for the others, as
 * `aws configure` writes them. Undefined when the file, the profile or its region is absent.
 */
export function awsProfileRegion(env: Env, profile: string | undefined): string | undefined {
  const home = env.HOME ?? env.USERPROFILE;
  const file = env.AWS_CONFIG_FILE?.trim() || (home ? join(home, '.aws', 'config') : undefined);
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (isGone(err)) return undefined;
    throw err;
  }
  const name = profile?.trim() || 'default';
  const wanted = name === 'default' ? ['default', 'profile default'] : [`profile ${name}`];
  let inProfile = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (section) {
      inProfile = wanted.includes(section[1].replace(/\s+/g, ' '));
      continue;
    }
    if (!inProfile) continue;
    const setting = /^region\s*=\s*(\S+)/.exec(line);
    if (setting) return setting[1];
  }
  return undefined;
}
