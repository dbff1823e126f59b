import { ApiPropertyOptional } from '@nestjs/swagger';
import { Equals, IsNotEmpty, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

export class UpdateProfileDto {
  @ApiPropertyOptional({ example: 'Ada Agent', description: 'Your name in this organization' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    enum: [null],
    description: 'null removes your avatar (upload one with POST /api/agent/me/avatar)',
  })
  @IsOptional()
  @Equals(null, { message: 'The avatar field can only be null here: upload an image instead.' })
  avatar?: null;

  @ApiPropertyOptional({ description: 'Required with `password`' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  current_password?: string;

  @ApiPropertyOptional({ minLength: 8, description: 'A new password' })
  @IsOptional()
  @IsString()
  @MinLength(8)
  @MaxLength(200)
  password?: string;
}
