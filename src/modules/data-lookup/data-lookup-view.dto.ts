import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { DRIVERS } from './lookup-settings';

/* The data-lookup settings as the dashboard reads them back (no secrets), and a test's answer. */

class ConnectionViewDto {
  @ApiProperty({ enum: DRIVERS }) driver!: string;
  @ApiProperty({ example: 'postgres://reader:****@db.example:5432/shop' }) url!: string;
}

class AccountViewDto {
  @ApiProperty() table!: string;
  @ApiProperty() key_column!: string;
  @ApiProperty({ type: [String] }) lookup_columns!: string[];
  @ApiProperty({ type: String, nullable: true }) email_column!: string | null;
  @ApiProperty({ type: String, nullable: true }) name_column!: string | null;
}

class FiltersViewDto {
  @ApiPropertyOptional() txn?: string;
  @ApiPropertyOptional() utr?: string;
  @ApiPropertyOptional() status?: string;
  @ApiPropertyOptional() mobile?: string;
  @ApiPropertyOptional() date?: string;
}

class FilterRecordViewDto {
  @ApiProperty() enabled!: boolean;
  @ApiProperty() button_label!: string;
  @ApiProperty() table!: string;
  @ApiProperty() account_column!: string;
  @ApiProperty({ type: FiltersViewDto }) filters!: FiltersViewDto;
  @ApiProperty({ type: [String] }) columns!: string[];
  @ApiProperty() limit!: number;
  @ApiProperty() empty_reply!: string;
  @ApiProperty() login_required_reply!: string;
}

class RuleActionViewDto {
  @ApiProperty() id!: string;
  @ApiProperty() label!: string;
  @ApiProperty() reply!: string;
}

class RuleViewDto {
  @ApiProperty() id!: string;
  @ApiProperty() label!: string;
  @ApiProperty({ type: [String] }) keywords!: string[];
  @ApiProperty() table!: string;
  @ApiProperty() account_column!: string;
  @ApiProperty({ type: [String] }) columns!: string[];
  @ApiProperty({ type: String, nullable: true }) order_by!: string | null;
  @ApiProperty({ enum: ['asc', 'desc'] }) direction!: string;
  @ApiProperty() page_size!: number;
  @ApiProperty() row_key!: string;
  @ApiProperty({ type: [RuleActionViewDto] }) actions!: RuleActionViewDto[];
}

export class DataLookupViewDto {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: ConnectionViewDto }) connection!: ConnectionViewDto;
  @ApiProperty({ type: AccountViewDto }) account!: AccountViewDto;
  @ApiProperty() require_otp!: boolean;
  @ApiProperty({ type: FilterRecordViewDto, nullable: true })
  filter_record!: FilterRecordViewDto | null;
  @ApiProperty({ type: [RuleViewDto] }) rules!: RuleViewDto[];
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class DataLookupResponseDto extends EnvelopeDto {
  @ApiProperty({ type: DataLookupViewDto }) data!: DataLookupViewDto;
}

class DataLookupTestDto {
  @ApiProperty({ description: 'The connection works and every table and column exists' })
  ok!: boolean;
  @ApiProperty({ example: '16.4' }) server_version!: string;
  @ApiProperty({ description: 'Milliseconds the check took' }) latency_ms!: number;
}

export class DataLookupTestResponseDto extends EnvelopeDto {
  @ApiProperty({ type: DataLookupTestDto }) data!: DataLookupTestDto;
}
