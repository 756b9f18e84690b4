#!/usr/bin/env -S npx tsx
import { App } from 'aws-cdk-lib';
import { addCatalogJobs } from '../lib/aws/app';

addCatalogJobs(new App());
