/** What status() reports: last upload, queue, last error, per resource; sync now; disconnect. */
import { Button, SafeAreaView, ScrollView, Text } from 'react-native';
import { WellstreamMobileError, type SyncStatus } from '@wellstream/mobile';
import { wellstream } from './wellstream';

export function StatusScreen({ status, onChange }: { status: SyncStatus; onChange: (s: SyncStatus) => void }) {
  const refresh = async () => onChange(await wellstream.status());
  return (
    <SafeAreaView>
      <ScrollView>
        <Text>{status.stopped === 'unauthorized' ? 'The token was revoked: connect again.' : status.stopped === 'source_disconnected' ? 'Disconnected on the marketplace: connect again.' : 'Connected'}</Text>
        <Text>Last upload: {status.lastUploadAt ?? 'never'}</Text>
        <Text>Waiting to upload: {status.queueLength}</Text>
        {status.lastError ? <Text>Last error ({status.lastError.code}): {status.lastError.message}</Text> : null}
        {status.connectEndpoint === 'pending' ? <Text>The platform does not show phone sources yet (pending).</Text> : null}
        {Object.entries(status.resources).map(([resource, r]) => (
          <Text key={resource}>
            {resource}: {r?.uploaded ?? 0} sent, latest {r?.lastRecordTime ?? '-'}
          </Text>
        ))}
        <Button
          title="Sync now"
          onPress={async () => {
            try {
              await wellstream.sync();
            } catch (e) {
              if (!(e instanceof WellstreamMobileError)) throw e;
            }
            await refresh();
          }}
        />
        <Button
          title="Disconnect"
          onPress={async () => {
            await wellstream.disconnect();
            await refresh();
          }}
        />
      </ScrollView>
    </SafeAreaView>
  );
}
