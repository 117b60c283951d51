/** What the Devices page shows with no device: the three ways to attach one. */
import { EmptyState } from '../../components/EmptyState';

export function AttachHelp(): React.JSX.Element {
  return (
    <EmptyState title="No Android device attached.">
      <p>Attach one of these ways; it appears here within a few seconds.</p>
      <ol className="attach-steps">
        <li>
          <strong>USB:</strong> enable Developer options → USB debugging on the phone, plug it in, and accept the "Allow
          USB debugging?" prompt.
        </li>
        <li>
          <strong>Over the network:</strong> run <code>adb connect host:port</code> (Wireless debugging, or a phone
          already in <code>adb tcpip 5555</code> mode).
        </li>
        <li>
          <strong>No phone at hand:</strong> start the host with a virtual phone:{' '}
          <code>npm run serve -- --virtual-device</code>.
        </li>
      </ol>
    </EmptyState>
  );
}
