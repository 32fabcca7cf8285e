/** Portable columns (docs/ARCHITECTURE.md): timestamps ISO 8601 UTC text. */
export interface GraphicsTable {
  id: string;
  organization_id: string;
  /** The user who uploaded it; that user and the brand administrators may delete it. */
  owner_id: string;
  /** From the bytes (image-format.ts): image/png, image/jpeg, image/gif or image/webp. */
  content_type: string;
  size: number;
  /** The strong ETag the public URL sends, quoted: a digest of the bytes. */
  etag: string;
  created_at: string;
}

export interface GraphicTables {
  graphics: GraphicsTable;
}
