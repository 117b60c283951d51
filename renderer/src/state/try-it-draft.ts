/**
 * Arguments handed from a call's detail to the Try-it form ("Open in Try it"): kept in this page's
 * memory only, read by the form that opens for that tool and then forgotten.
 */
export interface TryItDraft {
  args: Record<string, unknown>;
  fromCall: string;
}

let draft: (TryItDraft & { toolId: string }) | undefined;

export function setTryItDraft(toolId: string, args: Record<string, unknown>, fromCall: string): void {
  draft = { toolId, args, fromCall };
}

/** The draft for `toolId`, if there is one. */
export function peekTryItDraft(toolId: string): TryItDraft | undefined {
  return draft?.toolId === toolId ? { args: draft.args, fromCall: draft.fromCall } : undefined;
}

/** Once the form has it: a later visit to the tool starts empty. */
export function forgetTryItDraft(toolId: string): void {
  if (draft?.toolId === toolId) draft = undefined;
}
