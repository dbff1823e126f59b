import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppConfig } from '../../config/app-config';
import { withServer } from '../../common/openapi/document';
import { toPostmanCollection } from '../../common/openapi/postman';

/** Holds the document built at start-up (see main.ts) and derives the served forms once. */
@Injectable()
export class DocsService {
  private document?: OpenAPIObject;
  private collection?: unknown;

  constructor(private readonly config: AppConfig) {}

  setDocument(document: OpenAPIObject): void {
    this.document = withServer(document, this.config.publicUrl);
    this.collection = toPostmanCollection(document, this.config.publicUrl);
  }

  openapi(): OpenAPIObject | undefined {
    return this.document;
  }

  postman(): unknown {
    return this.collection;
  }
}
