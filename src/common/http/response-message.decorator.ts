import { SetMetadata } from '@nestjs/common';

export const RESPONSE_MESSAGE = 'response:message';
export const RAW_RESPONSE = 'response:raw';

/** The envelope `message` of a route's success response, e.g. `@ResponseMessage('Ticket created.')`. */
export const ResponseMessage = (message: string) => SetMetadata(RESPONSE_MESSAGE, message);

/** The route answers its own body as is (the OpenAPI and Postman documents). */
export const RawResponse = () => SetMetadata(RAW_RESPONSE, true);
