import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppConfig } from '../../config/app-config';
import { withServer } from '../../common/openapi/document';
import { toPostmanCollection } from '../../common/openapi/postman';

/**
 * Holds the OpenAPI document and its served forms, each built on the first request for it and
 * kept: an idle instance does not carry them (nor the garbage of building them), see
 * bench/README.md (Idle memory).
 */
@Injectable()
export class DocsService {
  private build?: () => OpenAPIObject;
  private built?: OpenAPIObject;
  private served?: OpenAPIObject;
  private collection?: unknown;

  constructor(private readonly config: AppConfig) {}

  /** `build` scans the application (main.ts); it runs once, on first use. */
  setDocumentSource(build: () => OpenAPIObject): void {
    this.build = build;
  }

  /** The document as built (no server address), as Swagger UI shows it. */
  document(): OpenAPIObject | undefined {
    this.built ??= this.build?.();
    return this.built;
  }

  openapi(): OpenAPIObject | undefined {
    const document = this.document();
    if (document) this.served ??= withServer(document, this.config.publicUrl);
    return this.served;
  }

  postman(): unknown {
    const document = this.document();
    if (document) this.collection ??= toPostmanCollection(document, this.config.publicUrl);
    return this.collection;
  }
}
