import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsEmail,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { VisitorProfileDto, WidgetVisitorBodyDto } from '../../common/dto/widget-visitor.dto';

export class AccountLoginBodyDto extends WidgetVisitorBodyDto {
  @ApiProperty({
    example: 'ada@example.com',
    maxLength: 255,
    description: "Email or mobile, matched against the account table's lookup columns",
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  identifier!: string;
}

export class VerifyOtpDto extends WidgetVisitorBodyDto {
  @ApiProperty({ example: '042917', maxLength: 32, description: 'The code mailed to the visitor' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  otp!: string;
}

export class FollowUpReplyDto {
  @ApiProperty({ enum: ['button', 'filter_record'] }) type!: string;
  @ApiProperty({ example: 'My orders' }) label!: string;
  @ApiProperty({ example: '📋' }) emoji!: string;
}

export class AccountLoginResponseDto extends EnvelopeDto {
  @ApiProperty({ description: 'False when no single account matches (only without OTP)' })
  success!: boolean;
  @ApiProperty({ description: 'A code was mailed; verify it next' }) otp_required!: boolean;
  @ApiProperty() reply_body!: string;
  @ApiProperty({ type: [FollowUpReplyDto] }) follow_up_replies!: FollowUpReplyDto[];
  @ApiProperty({ type: VisitorProfileDto }) visitor_profile!: VisitorProfileDto;
}

export class VerifyOtpResponseDto extends EnvelopeDto {
  @ApiProperty({ description: 'False for a wrong, burned or expired code (see reply_body)' })
  success!: boolean;
  @ApiProperty() reply_body!: string;
  @ApiProperty({ type: [FollowUpReplyDto] }) follow_up_replies!: FollowUpReplyDto[];
  @ApiProperty({ type: VisitorProfileDto }) visitor_profile!: VisitorProfileDto;
}

export class AccountLogoutResponseDto extends EnvelopeDto {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: VisitorProfileDto }) visitor_profile!: VisitorProfileDto;
}

export class TrustedLoginDto {
  @ApiProperty({ example: 'wk_0123456789abcdefABCDEF0123456789' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  widget_key!: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The visitor UID from init; required unless `visitor_id` is given',
  })
  @ValidateIf((body: TrustedLoginDto) => body.visitor_id === undefined)
  @IsString()
  @IsNotEmpty({ message: 'The visitor_uid field is required.' })
  @MaxLength(64)
  visitor_uid?: string;

  @ApiPropertyOptional({
    description:
      "The visitor's id, as the widget's `ready` event gives it to the host page (instead of `visitor_uid`)",
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  visitor_id?: number;

  @ApiProperty({ example: 'ada@example.com' })
  @IsEmail()
  @MaxLength(255)
  email!: string;
}

export class TrustedLoginResponseDto extends EnvelopeDto {
  @ApiProperty({ description: 'False when no single account has this email' }) success!: boolean;
  @ApiProperty() reply_body!: string;
  @ApiProperty({ type: VisitorProfileDto }) visitor_profile!: VisitorProfileDto;
}

export class TrustedLoginStatusDto {
  @ApiProperty() enabled!: boolean;
  @ApiProperty() secret_configured!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'vls_Ab12',
    description: 'Null without a secret',
  })
  secret_prefix!: string | null;
  @ApiProperty({ example: 'X-Service-Visitor-Login-Secret' }) header!: string;
  @ApiProperty({ example: 'https://chat.example.com/api/visitor-account-login/trusted' })
  endpoint!: string;
}

export class TrustedLoginStatusResponseDto extends EnvelopeDto {
  @ApiProperty({ type: TrustedLoginStatusDto }) trusted_login!: TrustedLoginStatusDto;
}

export class TrustedLoginSecretResponseDto extends TrustedLoginStatusResponseDto {
  @ApiProperty({
    example: 'vls_0123456789abcdefghijABCDEFGHIJ0123456789',
    description: 'Shown once',
  })
  plain_text_secret!: string;
}

export class UpdateTrustedLoginDto {
  @ApiProperty({ description: 'Enabling needs a secret (422 otherwise)' })
  @IsBoolean()
  enabled!: boolean;
}
