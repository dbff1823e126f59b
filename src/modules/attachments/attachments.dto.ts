import { ApiProperty } from '@nestjs/swagger';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';

/** An attachment as every message representation carries it (and as an upload answers it). */
export class AttachmentDto {
  @ApiProperty({ example: 12 }) id!: number;
  @ApiProperty({ example: 'invoice.pdf' }) file_name!: string;
  @ApiProperty({ example: 'application/pdf' }) content_type!: string;
  @ApiProperty({ example: 48213, description: 'Bytes' }) size!: number;
  @ApiProperty({
    format: 'uri',
    example:
      'https://chat.example.com/api/attachments/att_4kT9x2QmZr7LwP0sVbN3yHc8JdF5gE1aUo6iKpXe',
    description:
      'Absolute download address (unguessable; works without credentials, e.g. as an `<img src>`)',
  })
  url!: string;
}

export class AttachmentResponseDto extends EnvelopeDto {
  @ApiProperty({ type: AttachmentDto }) data!: AttachmentDto;
}

/** The multipart body of an upload, for the OpenAPI document. */
export const UPLOAD_BODY = {
  required: true,
  description: 'One file in the multipart field `file`',
  schema: {
    type: 'object',
    required: ['file'],
    properties: { file: { type: 'string', format: 'binary' } },
  },
} as const;
