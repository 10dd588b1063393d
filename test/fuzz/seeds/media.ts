import { storeMedia } from '../../../functions/src/media/store';
import { png } from '../../media/samples';
import type { FuzzSeedGroup } from './types';

// Seeds for question media: one file of the tenant's, stored as an import stores it.

interface Prepared {
  mediaId: string;
}

export const seeds: FuzzSeedGroup = {
  async prepare(w): Promise<Prepared> {
    const { stored } = await storeMedia(w.tenant.clientId, [{ name: 'fuzz.png', bytes: png(99) }], null);
    return { mediaId: stored.get('fuzz.png')!.id };
  },
  seeds: [
    {
      operation: 'get /api/media/{mediaId}',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { mediaId: p.mediaId } }),
    },
  ],
};
