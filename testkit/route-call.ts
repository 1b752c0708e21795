import type { ActionFunctionArgs } from "@remix-run/node";

type Action = (args: ActionFunctionArgs) => Promise<Response> | Response;

/** Calls a Remix action as the server would, turning a thrown Response into the response sent. */
export async function callAction(action: Action, request: Request): Promise<Response> {
  try {
    return await action({ request, params: {}, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
