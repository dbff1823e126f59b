import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/*
 * What the widget and the visitor account login share: the widget credentials of a body and the
 * visitor's profile as both answer it.
 */

/** The widget credentials of a body; the guard reads them (or the session token instead). */
export class WidgetVisitorBodyDto {
  @ApiPropertyOptional({
    description: 'The site widget key; not needed with a session token',
    example: 'wk_0123456789abcdefABCDEF0123456789',
  })
  @IsOptional()
  @IsString()
  widget_key?: string;

  @ApiPropertyOptional({
    description: 'The visitor UID from init; not needed with a session token',
    format: 'uuid',
  })
  @IsOptional()
  @IsString()
  visitor_uid?: string;
}

/** `visitor_profile.account_login`. */
class AccountLoginDto {
  @ApiProperty() logged_in!: boolean;
  @ApiProperty({ type: String, nullable: true }) identifier!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) verified_at!: string | null;
}

/** `visitor_profile` of the widget and account-login responses. */
export class VisitorProfileDto {
  @ApiProperty({ description: 'Empty while unknown' }) name!: string;
  @ApiProperty({ description: 'Empty while unknown' }) email!: string;
  @ApiProperty({ description: 'Empty while unknown' }) phone!: string;
  @ApiProperty({ description: 'Every required pre-chat field is filled' })
  profile_complete!: boolean;
  @ApiProperty() pre_chat_submitted!: boolean;
  @ApiProperty({ type: AccountLoginDto }) account_login!: AccountLoginDto;
}
