import { Kbd, Modal, Table } from '@mantine/core';
import { t, type MessageKey } from '../i18n';

const SHORTCUTS: [string[], MessageKey][] = [
  [['j'], 'app.keys.next'],
  [['k'], 'app.keys.previous'],
  [['r'], 'app.keys.reply'],
  [['Enter'], 'app.keys.send'],
  [['n'], 'app.keys.note'],
  [['a'], 'app.keys.assign'],
  [['l'], 'app.keys.labels'],
  [['z'], 'app.keys.snooze'],
  [['c'], 'app.keys.close'],
  [['1–6'], 'app.keys.views'],
  [['?'], 'app.keys.help'],
];

export function KeyboardSheet({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('app.keys.title')}
      closeButtonProps={{ 'aria-label': t('app.close') }}
      centered
    >
      <Table>
        <Table.Tbody>
          {SHORTCUTS.map(([combo, label]) => (
            <Table.Tr key={label}>
              <Table.Td w={110}>
                {combo.map((key) => (
                  <Kbd key={key}>{key}</Kbd>
                ))}
              </Table.Td>
              <Table.Td>{t(label)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
