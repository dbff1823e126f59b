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
import { AgentDto } from '../agents/agents.dto';
import { OrganizationDto } from '../organizations/organization.dto';
import type { InvitationRow } from './invitations.repository';

export class CreateInvitationDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsEmail()
  @MaxLength(255)
  email!: string;

  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES)
  role!: Role;

  @ApiPropertyOptional({ example: 'Ada Agent', description: 'Offered as the name on acceptance' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;
}

export class InvitationDto {
  @ApiProperty({ example: 3 }) id!: number;
  @ApiProperty({ example: 'ada@example.com' }) email!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ enum: ROLES }) role!: Role;
  @ApiProperty({ type: String, nullable: true, description: 'Who sent it' })
  invited_by!: string | null;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export function toInvitationDto(row: InvitationRow): InvitationDto {
  return {
    id: Number(row.id),
    email: row.email,
    name: row.name,
    role: row.role,
    invited_by: row.invited_by_name,
    expires_at: new Date(row.expires_at).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
  };
}

export class InvitationResponseDto extends EnvelopeDto {
  @ApiProperty({ type: InvitationDto }) data!: InvitationDto;
}

export class InvitationListResponseDto extends PageMetaDto {
  @ApiProperty({ type: [InvitationDto] }) data!: InvitationDto[];
}

export class AcceptInvitationDto {
  @ApiProperty({ description: 'The token of the mailed link' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  token!: string;

  @ApiPropertyOptional({
    example: 'Ada Agent',
    description: "The member's name (else the invitation's, or an existing account's)",
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiProperty({
    description:
      'A new password (at least 8 characters), or the existing password of an address that already has an account',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  password!: string;
}

export class AcceptInvitationResponseDto extends EnvelopeDto {
  @ApiProperty({ description: 'Agent bearer token; also set as the session cookie' })
  token!: string;
  @ApiProperty({ type: AgentDto }) user!: AgentDto;
  @ApiProperty({ type: OrganizationDto }) organization!: OrganizationDto;
}

export class PasswordResetRequestDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsEmail()
  @MaxLength(255)
  email!: string;
}

export class PasswordResetConfirmDto {
  @ApiProperty({ description: 'The token of the mailed link' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  token!: string;

  @ApiProperty({ minLength: 8 })
  @IsString()
  @MinLength(8)
  @MaxLength(200)
  password!: string;
}

export class VerifyEmailDto {
  @ApiProperty({ description: 'The token of the mailed link' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  token!: string;
}
