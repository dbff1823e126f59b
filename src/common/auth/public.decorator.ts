import { SetMetadata } from '@nestjs/common';

export const AUTH_METADATA = 'auth:declaration';

/** The route needs no credentials (health, documents). */
export const Public = () => SetMetadata(AUTH_METADATA, { kind: 'public' });
