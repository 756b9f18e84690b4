/**
 * Uploads bytes as a client does with the service's presigned form (SPEC 3.3): multipart/form-data to
 * `upload_form.url`, every field of `upload_form.fields` first, the file last.
 */
export const postUploadForm = (
  url: string,
  fields: Readonly<Record<string, string>>,
  bytes: Uint8Array | string,
  filename = 'upload.bin',
): Promise<Response> => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([bytes]), filename);
  return fetch(url, { method: 'POST', body: form });
};
