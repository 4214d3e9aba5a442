// How every browser run here launches Chromium: Debian's system browser (never a downloaded one), as root
// without a sandbox, and with nothing that reaches outside this machine.
export const CHROMIUM_PATH = process.env.EPOCHLAB_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
