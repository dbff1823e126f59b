import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsString, MaxLength, MinLength } from 'class-validator';
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
  @ApiProperty() token!: string;
  @ApiProperty({ type: AgentDto }) user!: AgentDto;
}

export class MeResponseDto extends EnvelopeDto {
  @ApiProperty({ type: AgentDto }) user!: AgentDto;
  @ApiProperty({ type: OrganizationDto }) organization!: OrganizationDto;
  @ApiProperty({
    description: 'Whether this login is a platform administrator (the dashboard shows Admin)',
  })
  platform_admin!: boolean;
}
