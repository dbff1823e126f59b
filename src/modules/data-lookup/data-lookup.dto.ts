import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { DRIVERS, type Driver } from './lookup-settings';

const SLUG = /^[A-Za-z0-9_-]{1,64}$/;
const IDENTIFIER_HINT = 'Checked against the database catalog when saved';

export class ConnectionDto {
  @ApiProperty({ enum: DRIVERS, description: 'PostgreSQL, or MySQL 8+ / MariaDB 10.1+' })
  @IsIn(DRIVERS)
  driver!: Driver;

  @ApiPropertyOptional({
    example: 'postgres://reader:secret@db.example:5432/shop',
    description:
      'postgres:// for `postgres`, mysql:// or mariadb:// for `mysql` ' +
      '(mysql://reader:secret@db.example:3306/shop). ' +
      'Stored encrypted. May be left out, or sent back masked as GET shows it, to keep the saved one.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  @Matches(/^(postgres(ql)?|mysql|mariadb):\/\/\S+$/, {
    message: 'url must be a postgres://, mysql:// or mariadb:// connection URL',
  })
  url?: string;
}

export class AccountDto {
  @ApiProperty({ example: 'customers', description: IDENTIFIER_HINT })
  @IsString()
  @IsNotEmpty()
  table!: string;

  @ApiProperty({ example: 'id' })
  @IsString()
  @IsNotEmpty()
  key_column!: string;

  @ApiProperty({ type: [String], example: ['email', 'mobile'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(5)
  @IsString({ each: true })
  lookup_columns!: string[];

  @ApiPropertyOptional({ type: String, nullable: true, example: 'email' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  email_column?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'name' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  name_column?: string | null;
}

export class FiltersDto {
  @ApiPropertyOptional({ example: 'txn_id' }) @IsOptional() @IsString() txn?: string;
  @ApiPropertyOptional({ example: 'utr' }) @IsOptional() @IsString() utr?: string;
  @ApiPropertyOptional({ example: 'status' }) @IsOptional() @IsString() status?: string;
  @ApiPropertyOptional({ example: 'mobile' }) @IsOptional() @IsString() mobile?: string;
  @ApiPropertyOptional({ example: 'paid_at', description: 'A date or timestamp column' })
  @IsOptional()
  @IsString()
  date?: string;
}

export class FilterRecordDto {
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() enabled?: boolean;

  @ApiPropertyOptional({ example: 'Find a payment', maxLength: 80 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(80)
  button_label?: string;

  @ApiProperty({ example: 'payments' }) @IsString() @IsNotEmpty() table!: string;
  @ApiProperty({ example: 'customer_id' }) @IsString() @IsNotEmpty() account_column!: string;

  @ApiProperty({
    type: FiltersDto,
    description: 'Preset to column; `date` serves date_from/date_to',
  })
  @ValidateNested()
  @Type(() => FiltersDto)
  filters!: FiltersDto;

  @ApiProperty({ type: [String], example: ['txn_id', 'utr', 'amount', 'status', 'paid_at'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  columns!: string[];

  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 100 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ example: 'No matching payments.', maxLength: 500 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  empty_reply?: string;

  @ApiPropertyOptional({ example: 'Please log in first.', maxLength: 500 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  login_required_reply?: string;
}

export class RuleActionDto {
  @ApiProperty({ example: 'track' })
  @Matches(SLUG, { message: 'id must be 1-64 letters, digits, _ or -' })
  id!: string;
  @ApiProperty({ example: 'Track' }) @IsString() @IsNotEmpty() @MaxLength(80) label!: string;

  @ApiProperty({
    example: 'Order {{id}} is {{status}}.',
    description: '`{{column}}` takes the row value (HTML-escaped); only the rule columns',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  reply!: string;
}

export class RuleDto {
  @ApiProperty({ example: 'orders' })
  @Matches(SLUG, { message: 'id must be 1-64 letters, digits, _ or -' })
  id!: string;
  @ApiProperty({ example: 'My orders' }) @IsString() @IsNotEmpty() @MaxLength(80) label!: string;

  @ApiProperty({ type: [String], example: ['order', 'orders'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(60, { each: true })
  keywords!: string[];

  @ApiProperty({ example: 'orders' }) @IsString() @IsNotEmpty() table!: string;
  @ApiProperty({ example: 'customer_id' }) @IsString() @IsNotEmpty() account_column!: string;

  @ApiProperty({ type: [String], example: ['id', 'total', 'status', 'created_at'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  columns!: string[];

  @ApiPropertyOptional({ type: String, nullable: true, example: 'created_at' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  order_by?: string | null;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  direction?: 'asc' | 'desc';

  @ApiPropertyOptional({ default: 5, minimum: 1, maximum: 50 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  page_size?: number;

  @ApiPropertyOptional({
    example: 'id',
    description: 'The column naming a row for row actions; default the first column',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  row_key?: string;

  @ApiPropertyOptional({ type: [RuleActionDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => RuleActionDto)
  actions?: RuleActionDto[];
}

export class PutDataLookupDto {
  @ApiProperty({
    description: "The site's data lookup switch (widget_settings.data_lookup.enabled)",
  })
  @IsBoolean()
  enabled!: boolean;

  @ApiProperty({ type: ConnectionDto })
  @ValidateNested()
  @Type(() => ConnectionDto)
  connection!: ConnectionDto;
  @ApiProperty({ type: AccountDto }) @ValidateNested() @Type(() => AccountDto) account!: AccountDto;

  @ApiPropertyOptional({
    default: true,
    description:
      'A mailed one-time code before a visitor is logged in (default on). Off, anyone who types ' +
      "a customer's email address or mobile number sees that customer's records.",
  })
  @IsOptional()
  @IsBoolean()
  require_otp?: boolean;

  @ApiPropertyOptional({ type: FilterRecordDto, nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => FilterRecordDto)
  filter_record?: FilterRecordDto | null;

  @ApiPropertyOptional({ type: [RuleDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => RuleDto)
  rules?: RuleDto[];
}

// Responses: the same shape with every default filled in and the URL's password masked.
