import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { ContentImportStateDto } from '../sites/content-import-state';
import { MAX_IMPORT_PAGES } from './content-import.service';

const PATH_PREFIX = /^\/[^\s]{0,199}$/;
const PREFIX_MESSAGE = 'Each path prefix starts with / (at most 200 characters).';

export class StartContentImportDto {
  @ApiPropertyOptional({
    example: 'https://acme.example/help/',
    description: "Where to start; by default `https://<the site's domain>/`",
  })
  @IsOptional()
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'The start_url must be an http(s) address.' },
  )
  @MaxLength(2000)
  start_url?: string;

  @ApiPropertyOptional({ default: 200, minimum: 1, maximum: MAX_IMPORT_PAGES })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_IMPORT_PAGES)
  max_pages?: number;

  @ApiPropertyOptional({
    type: [String],
    example: ['/help/'],
    description: 'Only pages under these paths become articles',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Matches(PATH_PREFIX, { each: true, message: PREFIX_MESSAGE })
  include?: string[];

  @ApiPropertyOptional({
    type: [String],
    example: ['/blog/'],
    description: 'Pages under these paths are never read',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Matches(PATH_PREFIX, { each: true, message: PREFIX_MESSAGE })
  exclude?: string[];

  @ApiPropertyOptional({
    default: false,
    description: 'Publish the articles at once (else they wait as drafts)',
  })
  @IsOptional()
  @IsBoolean()
  publish?: boolean;
}

export class ContentImportResponseDto extends EnvelopeDto {
  @ApiProperty({ type: ContentImportStateDto }) data!: ContentImportStateDto;
}
