import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';

class TwoFactorStatusDto {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ description: 'Unused recovery codes' }) recovery_codes_left!: number;
  @ApiProperty({
    description:
      "This session came through single sign-on: second factors are the identity provider's, and setting one up here is refused (403).",
  })
  managed_by_provider!: boolean;
}

export class TwoFactorStatusResponseDto extends EnvelopeDto {
  @ApiProperty({ type: TwoFactorStatusDto }) data!: TwoFactorStatusDto;
}

class TwoFactorSetupDto {
  @ApiProperty({ example: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', description: 'Base32' })
  secret!: string;
  @ApiProperty({ example: 'otpauth://totp/Support%20Chat:ada%40example.com?secret=...' })
  otpauth_uri!: string;
}

export class TwoFactorSetupResponseDto extends EnvelopeDto {
  @ApiProperty({ type: TwoFactorSetupDto }) data!: TwoFactorSetupDto;
}

class RecoveryCodesDto {
  @ApiProperty({ type: [String], example: ['abcde-fghij'] }) recovery_codes!: string[];
}

export class RecoveryCodesResponseDto extends EnvelopeDto {
  @ApiProperty({ type: RecoveryCodesDto }) data!: RecoveryCodesDto;
}

export class ConfirmTwoFactorDto {
  @ApiProperty({ example: '123456' })
  @IsString()
  @Matches(/^\s*\d{6}\s*$/, { message: 'The code must be the 6 digits your app shows.' })
  code!: string;
}

export class DisableTwoFactorDto {
  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  password!: string;

  @ApiProperty({ example: '123456' })
  @IsString()
  @Matches(/^\s*\d{6}\s*$/, { message: 'The code must be the 6 digits your app shows.' })
  code!: string;
}

export class FinishTwoFactorDto {
  @ApiProperty({ description: 'The challenge the login answered' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  challenge!: string;

  @ApiPropertyOptional({ example: '123456', description: 'A current code (or recovery_code)' })
  @ValidateIf((dto: FinishTwoFactorDto) => dto.recovery_code === undefined)
  @IsString({ message: 'The code field is required unless a recovery_code is given.' })
  @Matches(/^\s*\d{6}\s*$/, { message: 'The code must be the 6 digits your app shows.' })
  code?: string;

  @ApiPropertyOptional({ example: 'abcde-fghij', description: 'One of the recovery codes' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  recovery_code?: string;
}
