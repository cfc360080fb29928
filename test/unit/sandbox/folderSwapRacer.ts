/**
 * A python script that swaps `dir` with the link `out` (out of the workspace) and with the
 * link `vs` (to `.vscode`) as fast as it can: renameat2(RENAME_EXCHANGE) through ctypes,
 * each swap undone at once. It prints `racing` once it has started.
 */
export const folderSwapRacer = `
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
def swap(a, b):
    libc.renameat2(-100, a, -100, b, 2)
print('racing', flush=True)
while True:
    swap(b'dir', b'out'); swap(b'dir', b'out')
    swap(b'dir', b'vs'); swap(b'dir', b'vs')
`;
