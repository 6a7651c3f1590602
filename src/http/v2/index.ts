// Public API v2: two families under one auth + quota hook.
import type { FastifyInstance } from 'fastify';
import { authenticateV2 } from '../auth.js';
import { commerceRoutes } from './commerce.js';
import { widgetRoutes } from './widget.js';

export async function registerV2(app: FastifyInstance) {
  await app.register(
    async (v2) => {
      v2.addHook('onRequest', authenticateV2);
      await v2.register(widgetRoutes, { prefix: '/widget' });
      await v2.register(commerceRoutes, { prefix: '/commerce' });
    },
    { prefix: '/api/v2' },
  );
}
