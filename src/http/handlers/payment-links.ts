import { parseLinkListQuery } from "../../domain/payment-links/list-query";
import type { CreateLinkInput } from "../../domain/payment-links/schema";
import { cancelLink, createLink, getLink, listLinks } from "../../domain/payment-links/service";
import { toLinkJson, toLinkPageJson } from "../../domain/payment-links/view";
import type { ApiContext, ApiReply } from "../endpoint";

/** docs/contract.md, Create a link: 201 with the new link. */
export async function createPaymentLink(ctx: ApiContext<CreateLinkInput>): Promise<ApiReply> {
  const link = await createLink(ctx.deps, ctx.partner, ctx.body);
  return { status: 201, body: toLinkJson(link, ctx.deps.config.baseUrl) };
}

/** docs/contract.md, List links */
export async function listPaymentLinks(ctx: ApiContext): Promise<ApiReply> {
  const query = parseLinkListQuery(ctx.query);
  const page = await listLinks(ctx.deps, ctx.partner, query);
  return { status: 200, body: toLinkPageJson(page.links, ctx.deps.config.baseUrl, page) };
}

/** docs/contract.md, Read and cancel a link */
export async function getPaymentLink(ctx: ApiContext): Promise<ApiReply> {
  const link = await getLink(ctx.deps, ctx.partner, ctx.params.id ?? "");
  return { status: 200, body: toLinkJson(link, ctx.deps.config.baseUrl) };
}

/** docs/contract.md, Read and cancel a link: 200 with the cancelled link. */
export async function cancelPaymentLink(ctx: ApiContext): Promise<ApiReply> {
  const link = await cancelLink(ctx.deps, ctx.partner, ctx.params.id ?? "");
  return { status: 200, body: toLinkJson(link, ctx.deps.config.baseUrl) };
}
