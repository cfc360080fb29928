/** What a denied write or connect looks like in a command's output. */
const writeDenied = /read-only file system|EROFS|permission denied|EACCES|operation not permitted|EPERM/i;
const connectDenied =
  /network is unreachable|ENETUNREACH|could not resolve host|temporary failure in name resolution|EAI_AGAIN|ENOTFOUND|getaddrinfo|connection refused|ECONNREFUSED|name or service not known/i;
/** A Unix socket (a daemon's, or one the command wanted to make) named near the refusal. */
const unixSocket = /unix:\/\/|\bunix socket|\.sock\b|AF_UNIX|docker daemon|dial unix|socket: operation not permitted/i;

/**
 * The note added to a failed sandboxed command whose output shows a denied write or
 * connection, so the model knows why and what it may ask for; undefined otherwise.
 */
export function sandboxFailureNote(output: string, network: boolean, readOnlyWorkspace = false): string | undefined {
  const wrote = writeDenied.test(output);
  const connected = !network && connectDenied.test(output);
  const socket = unixSocket.test(output);
  if (!wrote && !connected) return undefined;
  const refused = readOnlyWorkspace
    ? 'an allow rule let it run without asking, and an allow rule allows reading: the whole workspace was read-only. ' +
      'If it must write, call bash again with writable: true (the person is asked)'
    : 'writes outside the workspace and to protected paths (.git internals, .vscode, .keel, rules files) are refused';
  const what = [
    wrote ? refused : undefined,
    socket ? 'Unix sockets (Docker and other programs on this machine, or one of its own) are refused, also with the network' : undefined,
    connected ? 'it has no network' : undefined,
  ].filter(Boolean);
  const ask = connected
    ? 'If it needs the network, call bash again with network: true (the person is asked). '
    : '';
  return (
    `This command ran in Keel's OS sandbox, and it probably failed because of it: ${what.join('; ')}. ` +
    `${ask}If it must run outside the sandbox, call bash again with unsandboxed: true; the person always has to approve that.`
  );
}
