/** A thin horizontal rule in the theme's border colour; `<hr>` is a separator to screen readers. */
export function Divider() {
  return <hr className="ui-divider" />;
}
