/**
 * A label's colour as a dot beside its name (the name stays dark on light: coloured text would
 * miss 4.5:1 for many colours). Decorative: the name says which label it is.
 */
export function LabelDot({ color }: { color: string }) {
  return (
    <span
      aria-hidden
      data-label-color={color}
      style={{
        display: 'inline-block',
        width: 8,
        height: 8,
        borderRadius: '50%',
        background: /^#[0-9a-f]{6}$/i.test(color) ? color : 'var(--mantine-color-gray-5)',
      }}
    />
  );
}
