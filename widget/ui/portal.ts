/**
 * Renders children into another node (the `portalContainer` of the
 * `SearchBox` component), in a wrapper element appended to it and removed on
 * unmount, so the node's other children stay untouched.
 *
 * @module
 */
import { type ComponentChildren, render } from "preact";
import { useLayoutEffect, useMemo } from "preact/hooks";

/** Props of {@link Portal}. */
export interface PortalProps {
  container: Element | DocumentFragment;
  children: ComponentChildren;
}

/** Renders `children` into `container`; renders nothing in place. */
export function Portal({ container, children }: PortalProps): null {
  const host = useMemo(() => container.ownerDocument!.createElement("div"), [
    container,
  ]);
  useLayoutEffect(() => {
    container.appendChild(host);
    return () => {
      render(null, host);
      host.remove();
    };
  }, [host]);
  useLayoutEffect(() => render(children, host));
  return null;
}
