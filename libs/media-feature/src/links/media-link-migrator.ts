import { EXPIRES_WITH_PUBLIC_MESSAGE, Errors, HttpReply, type MediaAccess, type MediaErrorBody } from '@mapi/contracts';
import type { ObjectKey } from '@mapi/storage';
import type { MediaSettingsRepository } from '../repositories/media-settings-repository';
import { clampExpiry } from './link-expiry';
import { MediaLinkError, type LinkProblem, type MediaLinks } from './media-links';
import { isOwnedBy } from '../rows/ownership';

/** The links a request asks for, once the organization's defaults are applied. */
export interface LinkPolicy {
  access: MediaAccess;
  /** Set for private links only. */
  expiresInSeconds?: number;
}

/** HTTP status of each failure of POST /media/migrate-url (docs/services/media.md). */
export const LINK_PROBLEM_STATUS: Record<LinkProblem, number> = {
  'not-a-url': 422,
  'not-a-service-bucket': 422,
  'other-organization': 403,
};

export const OTHER_ORGANIZATION_MESSAGE = 'This URL belongs to a different organization';

/** What both migrate use cases share: the access policy and turning one input into an owned object. */
export class MediaLinkMigrator {
  constructor(
    readonly links: MediaLinks,
    private readonly settings: MediaSettingsRepository,
  ) {}

  /**
   * `access` when given, else the organization's setting; the lifetime of private links from the
   * request or the organization's setting, clamped. An expiry with a link that ends up public is a 422
   * (the gateway already refuses it with an explicit `access: public`; here it is the default's doing).
   */
  async policy(orgId: string, requested: { access?: MediaAccess; expires_in_seconds?: number }): Promise<LinkPolicy> {
    const needsSettings = requested.access === undefined || (requested.access === 'private' && requested.expires_in_seconds === undefined);
    const settings = needsSettings ? await this.settings.get(orgId) : undefined;
    const access = requested.access ?? settings!.accessDefault;
    if (access === 'public') {
      if (requested.expires_in_seconds !== undefined) {
        throw Errors.validation({ 'body.expires_in_seconds': { message: EXPIRES_WITH_PUBLIC_MESSAGE } });
      }
      return { access };
    }
    return { access, expiresInSeconds: clampExpiry(requested.expires_in_seconds ?? settings!.linkExpirySeconds) };
  }

  /** The object `input` names, if it is one of the organization's files in a service bucket. */
  ownedObject(orgId: string, input: unknown): ObjectKey {
    const key = this.links.parse(input);
    if (!isOwnedBy(key, orgId)) throw new MediaLinkError('other-organization', OTHER_ORGANIZATION_MESSAGE);
    return key;
  }

  static toReply(error: MediaLinkError): HttpReply<MediaErrorBody> {
    return new HttpReply(LINK_PROBLEM_STATUS[error.problem], { error: error.message });
  }
}
