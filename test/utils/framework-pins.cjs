// Run by test/e2e/framework-overrides.e2e-spec.ts in its own Node process (jest cannot load
// Nest's ES modules on Node 20): tiny Nest apps on the compiled overrides, their answers printed
// as one JSON line. Plain JavaScript, so the decorators are applied by hand.
require('reflect-metadata');
const path = require('node:path');
const { Controller, Get, Injectable, Module, Req } = require('@nestjs/common');
const { APP_GUARD, NestFactory } = require('@nestjs/core');
const { MessageBody, SubscribeMessage, WebSocketGateway } = require('@nestjs/websockets');
const { io } = require('socket.io-client');

const dist = (file) => require(path.join(__dirname, '..', '..', 'dist', 'src', file));
const { JsonExpressAdapter } = dist('common/http/json-express-adapter.js');
const { RawResponse, ResponseMessage } = dist('common/http/response-message.decorator.js');
const { RESPONSE_SHAPE, ResponseShapeGuard } = dist('common/http/response-shape.guard.js');
const { LeanIoAdapter } = dist('modules/realtime/lean-io.adapter.js');

const method = (target, name, decorators) =>
  Reflect.decorate(
    decorators,
    target.prototype,
    name,
    Object.getOwnPropertyDescriptor(target.prototype, name),
  );

async function http() {
  class PinnedController {
    enveloped(request) {
      // The guard ran before the handler and left the route's shape on the request.
      return { data: { shape: request[RESPONSE_SHAPE] } };
    }
    raw() {
      return { openapi: '3.0.0' };
    }
  }
  Req()(PinnedController.prototype, 'enveloped', 0);
  method(PinnedController, 'enveloped', [Get('enveloped'), ResponseMessage('Pinned.')]);
  method(PinnedController, 'raw', [Get('raw'), RawResponse()]);
  Reflect.decorate([Controller('pinned')], PinnedController);
  class PinnedModule {}
  Reflect.decorate(
    [
      Module({
        controllers: [PinnedController],
        providers: [{ provide: APP_GUARD, useClass: ResponseShapeGuard }],
      }),
    ],
    PinnedModule,
  );

  let replies = 0;
  const reply = JsonExpressAdapter.prototype.reply;
  JsonExpressAdapter.prototype.reply = function (...args) {
    replies += 1;
    return reply.apply(this, args);
  };
  const app = await NestFactory.create(PinnedModule, new JsonExpressAdapter(), { logger: false });
  app.set('etag', false);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  try {
    const response = await fetch(`${base}/pinned/enveloped`);
    const text = await response.text();
    const repliesForOne = replies;
    const raw = await fetch(`${base}/pinned/raw`).then((r) => r.json());
    return {
      replies_for_one_request: repliesForOne,
      status: response.status,
      content_type: response.headers.get('content-type'),
      content_length_matches:
        response.headers.get('content-length') === String(Buffer.byteLength(text)),
      body: JSON.parse(text),
      raw,
    };
  } finally {
    JsonExpressAdapter.prototype.reply = reply;
    await app.close();
  }
}

async function sockets() {
  class PinnedGateway {
    ping(body) {
      return { event: 'pong', data: { n: body.n + 1 } };
    }
    ask(body) {
      return Promise.resolve({ n: body.n * 2 });
    }
  }
  MessageBody()(PinnedGateway.prototype, 'ping', 0);
  MessageBody()(PinnedGateway.prototype, 'ask', 0);
  method(PinnedGateway, 'ping', [SubscribeMessage('ping')]);
  method(PinnedGateway, 'ask', [SubscribeMessage('ask')]);
  Reflect.decorate([WebSocketGateway({ namespace: '/pinned' }), Injectable()], PinnedGateway);
  class GatewayModule {}
  Reflect.decorate([Module({ providers: [PinnedGateway] })], GatewayModule);

  let binds = 0;
  const bind = LeanIoAdapter.prototype.bindMessageHandlers;
  LeanIoAdapter.prototype.bindMessageHandlers = function (...args) {
    binds += 1;
    return bind.apply(this, args);
  };
  const app = await NestFactory.create(GatewayModule, { logger: false });
  app.useWebSocketAdapter(new LeanIoAdapter(app, ['websocket']));
  await app.listen(0, '127.0.0.1');
  const socket = io(`http://127.0.0.1:${app.getHttpServer().address().port}/pinned`, {
    transports: ['websocket'],
    reconnection: false,
  });
  try {
    await new Promise((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const pong = new Promise((resolve) => socket.once('pong', resolve));
    socket.emit('ping', { n: 1 });
    const emitted = await pong;
    const acknowledged = await socket.timeout(5000).emitWithAck('ask', { n: 21 });
    return { binds, emitted, acknowledged };
  } finally {
    LeanIoAdapter.prototype.bindMessageHandlers = bind;
    socket.close();
    await app.close();
  }
}

(async () => {
  const result = { http: await http(), sockets: await sockets() };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
})().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
