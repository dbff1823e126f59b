import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ROLES, type Role } from '../../common/auth/auth.types';
import { PageMetaDto, PageQueryDto } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { MemberRecord } from './member-record';

export class AgentQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ROLES })
  @IsOptional()
  @IsIn(ROLES)
  role?: Role;
}

class PublicAgentDto {
  @ApiProperty({ example: 7 }) id!: number;
  @ApiProperty({ example: 'Ada Agent' }) name!: string;
  @ApiProperty({ example: 'ada@example.com' }) email!: string;
  @ApiProperty({ enum: ROLES }) role!: string;
  @ApiProperty({ enum: ['online', 'away', 'offline'] }) status!: string;
}

class PublicAgentDetailDto extends PublicAgentDto {
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_seen_at!: string | null;
}

export class AgentPageDto extends PageMetaDto {
  @ApiProperty({ type: [PublicAgentDto] }) data!: PublicAgentDto[];
}

export class AgentDetailResponseDto extends EnvelopeDto {
  @ApiProperty({ type: PublicAgentDetailDto }) data!: PublicAgentDetailDto;
}

export const toPublicAgent = (user: MemberRecord): PublicAgentDto => ({
  id: Number(user.id),
  name: user.name,
  email: user.email,
  role: user.role,
  status: user.status,
});
