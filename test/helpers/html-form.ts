/**
 * A form-filling client, as a person (or a browser) submits a page as shown: the first form's fields with
 * the values the page gives them (an input's `value`, a select's `selected` option or else its first),
 * and the first submit button's name and value. The HTML is read with the runtime's HTMLRewriter, not
 * with the server's own code, so the test sees the page the way any client would.
 */

export interface ShownForm {
  /** The form's `method` (lower case; `get` when absent). */
  method: string;
  fields: Record<string, string>;
}

export async function formAsShown(html: string): Promise<ShownForm> {
  const form: ShownForm = { method: "get", fields: {} };
  let forms = 0;
  let inForm = false;
  let select: { name: string; first?: string; chosen?: string } | undefined;
  let submitted = false;
  const finishSelect = () => {
    if (select === undefined) return;
    form.fields[select.name] = select.chosen ?? select.first ?? "";
    select = undefined;
  };
  const rewriter = new HTMLRewriter()
    .on("form", {
      element(element) {
        forms += 1;
        if (forms !== 1) return;
        inForm = true;
        form.method = (element.getAttribute("method") ?? "get").toLowerCase();
        element.onEndTag(() => {
          finishSelect();
          inForm = false;
        });
      },
    })
    .on("input", {
      element(element) {
        const name = element.getAttribute("name");
        if (!inForm || name === null) return;
        form.fields[name] = element.getAttribute("value") ?? "";
      },
    })
    .on("select", {
      element(element) {
        const name = element.getAttribute("name");
        if (!inForm || name === null) return;
        select = { name };
        element.onEndTag(finishSelect);
      },
    })
    .on("option", {
      element(element) {
        if (select === undefined) return;
        const value = element.getAttribute("value") ?? "";
        select.first ??= value;
        if (element.hasAttribute("selected")) select.chosen = value;
      },
    })
    .on("button", {
      element(element) {
        const name = element.getAttribute("name");
        const type = element.getAttribute("type") ?? "submit";
        if (!inForm || submitted || name === null || type !== "submit") return;
        submitted = true;
        form.fields[name] = element.getAttribute("value") ?? "";
      },
    });
  await rewriter.transform(new Response(html)).text();
  return form;
}
