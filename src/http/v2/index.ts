// Public API v2: two families under one auth + quota hook.
import type { FastifyInstance } from 'fastify';
import { authenticateV2 } from '../auth.js';
import { registerOperations } from './operations.js';

export async function registerV2(app: FastifyInstance) {
  await app.register(
    async (v2) => {
      v2.addHook('onRequest', authenticateV2);
      await registerOperations(v2);
    },
    { prefix: '/api/v2' },
  );
}
