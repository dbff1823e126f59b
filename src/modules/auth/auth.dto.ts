import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsInt, IsNotEmpty, IsString, MaxLength, Min, MinLength } from 'class-validator';
import { ROLES, type Role } from '../../common/auth/auth.types';
import { AgentDto } from '../agents/agents.dto';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { SiteDto } from '../sites/sites.dto';
import { OrganizationDto } from '../organizations/organization.dto';

export class RegisterDto {
  @ApiProperty({ example: 'Acme Inc.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  organization_name!: string;

  @ApiProperty({ example: 'Olivia Owner' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name!: string;

  @ApiProperty({ example: 'olivia@acme.test' })
  @IsEmail()
  @MaxLength(255)
  email!: string;

  @ApiProperty({ example: 'correct horse battery staple', minLength: 8 })
  @IsString()
  @MinLength(8)
  @MaxLength(200)
  password!: string;
}

export class LoginDto {
  @ApiProperty({ example: 'olivia@acme.test' })
  @IsEmail()
  @MaxLength(255)
  email!: string;

  @ApiProperty({ example: 'correct horse battery staple' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  password!: string;
}

export class ChangePasswordDto {
  @ApiProperty({ example: 'correct horse battery staple' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  current_password!: string;

  @ApiProperty({ example: 'a longer and newer passphrase', minLength: 8 })
  @IsString()
  @MinLength(8)
  @MaxLength(200)
  new_password!: string;
}

export class RegisterResponseDto extends EnvelopeDto {
  @ApiProperty({ description: 'Agent bearer token; also set as the HttpOnly session cookie' })
  token!: string;
  @ApiProperty({ type: AgentDto }) user!: AgentDto;
  @ApiProperty({ type: OrganizationDto }) organization!: OrganizationDto;
  @ApiProperty({ type: SiteDto }) site!: SiteDto;
}

export class LoginResponseDto extends EnvelopeDto {
  @ApiPropertyOptional({ description: 'The bearer token (absent while two_factor_required)' })
  token?: string;
  @ApiPropertyOptional({ type: AgentDto }) user?: AgentDto;
  @ApiPropertyOptional({
    enum: [true],
    description: 'The password was right; finish with POST /api/agent/auth/two-factor',
  })
  two_factor_required?: boolean;
  @ApiPropertyOptional({ description: 'The token of the second step, valid 5 minutes' })
  challenge?: string;
  @ApiPropertyOptional({ format: 'date-time' }) expires_at?: string;
}

export class SessionResponseDto extends EnvelopeDto {
  @ApiProperty() token!: string;
  @ApiProperty({ type: AgentDto }) user!: AgentDto;
}

export class MembershipDto {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ example: 'Acme Inc.' }) name!: string;
  @ApiProperty({ enum: ROLES }) role!: Role;
}

export class SwitchOrganizationDto {
  @ApiProperty({ example: 2, description: 'An organization this login is a member of' })
  @IsInt()
  @Min(1)
  organization_id!: number;
}

export class SwitchOrganizationResponseDto extends EnvelopeDto {
  @ApiProperty({ description: 'The new session token (also set as the session cookie)' })
  token!: string;
  @ApiProperty({ type: AgentDto }) user!: AgentDto;
  @ApiProperty({ type: OrganizationDto }) organization!: OrganizationDto;
}

export class MeResponseDto extends EnvelopeDto {
  @ApiProperty({ type: AgentDto }) user!: AgentDto;
  @ApiProperty({ type: OrganizationDto }) organization!: OrganizationDto;
  @ApiProperty({
    type: [MembershipDto],
    description:
      'Every organization this login belongs to, with its role there (the organization switcher)',
  })
  organizations!: MembershipDto[];
  @ApiProperty({
    description:
      'The organization requires two-factor authentication and this login has not set it up: every other route answers 403 until it does',
  })
  two_factor_setup_required!: boolean;
  @ApiProperty({
    description:
      'Whether the address of this login is confirmed (until then a banner shows and invitations are refused)',
  })
  email_verified!: boolean;
  @ApiProperty({
    description: 'Whether this login is a platform administrator (the dashboard shows Admin)',
  })
  platform_admin!: boolean;
}
