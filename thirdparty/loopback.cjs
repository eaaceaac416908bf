'use strict';
// Preloaded with `node --require` by internal/thirdparty, mcpcli's test
// helpers, into the HTTP servers they start. The third-party servers listen
// on every interface, and some on a hard-coded port (3000, 3001, ...); here
// every TCP listen goes to 127.0.0.1 instead, and a port named in
// MCPCLI_THIRDPARTY_PORTS ("3000=41234,3001=41235") is moved to the free
// port the helper picked, so tests can run several servers side by side and
// none is reachable from outside the machine.
const net = require('node:net');

const moves = new Map();
for (const pair of (process.env.MCPCLI_THIRDPARTY_PORTS || '').split(',')) {
  if (pair === '') continue;
  const [from, to] = pair.split('=').map(Number);
  if (!Number.isInteger(from) || !Number.isInteger(to)) {
    throw new Error(`MCPCLI_THIRDPARTY_PORTS: ${JSON.stringify(pair)} is not FROM=TO`);
  }
  moves.set(from, to);
}

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const callback = typeof args[args.length - 1] === 'function' ? args.pop() : undefined;
  const first = args[0];
  let options;
  if (first === undefined || first === null) {
    options = { port: 0 };
  } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    options = { port: Number(first) };
  } else if (typeof first === 'object' && first.path === undefined && first.handle === undefined && first.fd === undefined) {
    options = { ...first, port: Number(first.port ?? 0) };
  } else {
    // A Unix socket, a handle or a file descriptor: nothing to move.
    return listen.apply(this, callback ? [...args, callback] : args);
  }
  options.port = moves.get(options.port) ?? options.port;
  options.host = '127.0.0.1';
  return callback ? listen.call(this, options, callback) : listen.call(this, options);
};
