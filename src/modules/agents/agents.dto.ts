import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';
import { ROLES, type Role } from '../../common/auth/auth.types';
import { PageMetaDto } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { MemberRecord } from './member-record';

let PUBLIC_URL = '';
/** Set once at start-up (AgentsService), so the DTO mappers can make absolute avatar addresses. */
export function setAvatarBase(publicUrl: string): void {
  PUBLIC_URL = publicUrl;
}

/** The avatar's address, or null (the unguessable token is the credential, as attachments'). */
export function avatarUrl(token: string | null): string | null {
  return token ? `${PUBLIC_URL}/api/avatars/${token}` : null;
}

export class AgentDto {
  @ApiProperty({ example: 7 }) id!: number;
  @ApiProperty({ example: 'Ada Agent' }) name!: string;
  @ApiProperty({ example: 'ada@example.com' }) email!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'https://chat.example.com/api/avatars/av_3kT9',
    description: "The member's picture, or null",
  })
  avatar_url!: string | null;
  @ApiProperty({ enum: ROLES }) role!: Role;
  @ApiProperty({ enum: ['online', 'away', 'offline'] }) status!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_seen_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export function toAgentDto(user: MemberRecord): AgentDto {
  return {
    id: Number(user.id),
    name: user.name,
    email: user.email,
    avatar_url: avatarUrl(user.avatarToken),
    role: user.role,
    status: user.status,
    last_seen_at: user.lastSeenAt ? new Date(user.lastSeenAt).toISOString() : null,
    created_at: new Date(user.createdAt).toISOString(),
  };
}

/**
 * A member as every member of the organization sees them (DESIGN section 12): enough to name who
 * holds a chat or wrote a message, without the address book (no email) that managing needs.
 */
export class TeamMemberDto {
  @ApiProperty({ example: 7 }) id!: number;
  @ApiProperty({ example: 'Ada Agent' }) name!: string;
  @ApiProperty({ enum: ROLES }) role!: Role;
  @ApiProperty({ enum: ['online', 'away', 'offline'] }) status!: string;
  @ApiProperty({ type: String, nullable: true, description: "The member's picture, or null" })
  avatar_url!: string | null;
}

export function toTeamMemberDto(user: MemberRecord): TeamMemberDto {
  return {
    id: Number(user.id),
    name: user.name,
    role: user.role,
    status: user.status,
    avatar_url: avatarUrl(user.avatarToken),
  };
}

export class CreateTeamMemberDto {
  @ApiProperty({ example: 'Ada Agent' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name!: string;

  @ApiProperty({ example: 'ada@example.com' })
  @IsEmail()
  @MaxLength(255)
  email!: string;

  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES)
  role!: Role;

  @ApiProperty({ example: 'correct horse battery staple', minLength: 8 })
  @IsString()
  @MinLength(8)
  @MaxLength(200)
  password!: string;
}

export class UpdateTeamMemberDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ enum: ROLES })
  @IsOptional()
  @IsIn(ROLES)
  role?: Role;
}

export class AgentResponseDto extends EnvelopeDto {
  @ApiProperty({ type: AgentDto }) data!: AgentDto;
}

export class AgentListResponseDto extends PageMetaDto {
  @ApiProperty({ type: [AgentDto] }) data!: AgentDto[];
}

export class TeamDirectoryResponseDto extends PageMetaDto {
  @ApiProperty({ type: [TeamMemberDto] }) data!: TeamMemberDto[];
}
