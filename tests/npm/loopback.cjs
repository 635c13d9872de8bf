// Preloaded with `node --require` so that npm example servers, which listen on every
// interface with no flag to change it, listen on 127.0.0.1 only in mcplab's tests and
// benchmarks. It rewrites the host of every net.Server#listen call.
'use strict';
const net = require('net');
const original = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'object' && args[0] !== null && !Array.isArray(args[0])) {
    args[0] = { ...args[0], host: '127.0.0.1' };
  } else if (typeof args[0] === 'number' || typeof args[0] === 'string') {
    // listen(port[, host][, backlog][, cb]): drop a given host, insert ours.
    const port = args[0];
    const rest = args.slice(1).filter((a, i) => !(i === 0 && typeof a === 'string'));
    args = [port, '127.0.0.1', ...rest];
  } else if (args.length === 0 || typeof args[0] === 'function') {
    args = [0, '127.0.0.1', ...args];
  }
  return original.apply(this, args);
};
